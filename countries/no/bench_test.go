package no

import (
	"encoding/json"
	"testing"
)

// BenchmarkMapEquinor measures decoding and mapping the Equinor recording,
// the work done per live lookup after the HTTP round trip.
func BenchmarkMapEquinor(b *testing.B) {
	body := recording(b, "enhet_923609016_equinor_asa_2026-08.json")
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		var u unit
		if err := json.Unmarshal(body, &u); err != nil {
			b.Fatal(err)
		}
		_ = mapUnit(&u, equinorID, false)
	}
}

// BenchmarkMapEquinorMappingOnly measures the mapping alone, without JSON
// decoding.
func BenchmarkMapEquinorMappingOnly(b *testing.B) {
	var u unit
	if err := json.Unmarshal(recording(b, "enhet_923609016_equinor_asa_2026-08.json"), &u); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = mapUnit(&u, equinorID, false)
	}
}

// BenchmarkScoreHit measures scoring one hit name against a query at the
// token anchor (the slowest path that still matches).
func BenchmarkScoreHit(b *testing.B) {
	m := newMatcher("asa equinor")
	b.ReportAllocs()
	for b.Loop() {
		_, _ = m.score("EQUINOR ASA")
	}
}

// BenchmarkSearchResult measures mapping and scoring a recorded search page.
func BenchmarkSearchResult(b *testing.B) {
	var p searchPage
	if err := json.Unmarshal(recording(b, "search_enheter_navn_sesam_size2_page0_v1_2024-01_EDITED-ENVELOPE.json"), &p); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = searchResult(&p, "sesam", 10)
	}
}
