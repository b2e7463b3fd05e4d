package fi

import (
	"encoding/json"
	"testing"

	registry "github.com/companyregistry/registry"
)

// BenchmarkMapNokia measures decoding and mapping the Nokia recording, the
// work done per live lookup after the HTTP round trip.
func BenchmarkMapNokia(b *testing.B) {
	body := recording(b, nokiaFile)
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		var res companyResult
		if err := json.Unmarshal(body, &res); err != nil {
			b.Fatal(err)
		}
		_ = mapCompany(&res.Companies[0], nokiaID)
	}
}

// BenchmarkSearchSupercell measures mapping the recorded search page.
func BenchmarkSearchSupercell(b *testing.B) {
	var res companyResult
	if err := json.Unmarshal(recording(b, searchFile), &res); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = searchResult(&res, "supercell", 20)
	}
}

// BenchmarkDeadlinesNokia measures the module's deadlines path (duty
// profile from the table, then the engine) on the Nokia report.
func BenchmarkDeadlinesNokia(b *testing.B) {
	var res companyResult
	if err := json.Unmarshal(recording(b, nokiaFile), &res); err != nil {
		b.Fatal(err)
	}
	rep := mapCompany(&res.Companies[0], nokiaID)
	c := &Country{}
	today := registry.NewDate(2026, 11, 24)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Deadlines(rep, today); err != nil {
			b.Fatal(err)
		}
	}
}
