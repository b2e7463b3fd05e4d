package fr

import (
	"encoding/json"
	"testing"

	registry "github.com/companyregistry/registry"
)

// BenchmarkMapDanone measures decoding and mapping the Danone recording
// (13 officers, finances, a VAT number), the work done per live lookup
// after the HTTP round trip.
func BenchmarkMapDanone(b *testing.B) {
	body := recording(b, danoneFile)
	id := asked(b, "552032534")
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		var p searchPage
		if err := json.Unmarshal(body, &p); err != nil {
			b.Fatal(err)
		}
		_ = mapUnit(&p.Results[0], id)
	}
}

// BenchmarkSearchKikou measures mapping the recorded search page.
func BenchmarkSearchKikou(b *testing.B) {
	var p searchPage
	if err := json.Unmarshal(recording(b, kikouFile), &p); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = searchResult(&p, "kikou", 20)
	}
}

// BenchmarkDeadlinesDanone measures the module's deadlines path (the duty
// profile from the table and the facts note, then the engine) on the
// Danone report.
func BenchmarkDeadlinesDanone(b *testing.B) {
	var p searchPage
	if err := json.Unmarshal(recording(b, danoneFile), &p); err != nil {
		b.Fatal(err)
	}
	rep := mapUnit(&p.Results[0], asked(b, "552032534"))
	c := &Country{}
	today := registry.NewDate(2026, 11, 24)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Deadlines(rep, today); err != nil {
			b.Fatal(err)
		}
	}
}
