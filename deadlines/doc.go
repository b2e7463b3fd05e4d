// Package deadlines computes statutory filing deadlines for Norway and the
// United Kingdom from a [registry.CompanyReport] and a given day. It is pure:
// no I/O and no clock; the same inputs always give the same output.
package deadlines
