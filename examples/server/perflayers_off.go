//go:build !perflayers

package main

import (
	"net/http"

	"github.com/companyregistry/registry/internal/httpmw"
)

// perfLayers is the program's handler as it is; a build with the
// perflayers tag measures its layers (perflayers.go).
func perfLayers(full http.Handler, _ *httpmw.Stack) http.Handler { return full }
