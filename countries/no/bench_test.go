package no

import (
	"encoding/json"
	"testing"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
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

// BenchmarkDeadlinesTypicalAS measures the module's deadlines operation for
// a typical AS with VAT and employees: the duty profile read from the
// legal-form table plus the engine (deadlines.BenchmarkNorwayTypicalAS
// measures the engine alone).
func BenchmarkDeadlinesTypicalAS(b *testing.B) {
	c, err := New()
	if err != nil {
		b.Fatal(err)
	}
	rep := mapUnit(&unit{
		Organisasjonsnummer: equinorID, Navn: "EKSEMPEL AS", Organisasjonsform: &codeText{Kode: "AS"},
		RegistrertIMva: countrykit.Ptr(true), HarAntallAnsatte: countrykit.Ptr(true), Stiftelsesdato: "2012-05-03",
	}, equinorID, false)
	today := registry.NewDate(2027, 3, 1)
	b.ReportAllocs()
	for b.Loop() {
		if out, _ := c.Deadlines(rep, today); len(out.Deadlines) != 6 {
			b.Fatal(len(out.Deadlines))
		}
	}
}

// BenchmarkNormalizeID measures what the Registry asks of the module
// before a lookup of an already-normal number: "validate" is Validate,
// "normalize" NormalizeID (registry.IDNormalizer), which it now calls.
func BenchmarkNormalizeID(b *testing.B) {
	c, err := New()
	if err != nil {
		b.Fatal(err)
	}
	b.Run("validate", func(b *testing.B) {
		for b.Loop() {
			_ = c.Validate("923609016")
		}
	})
	b.Run("normalize", func(b *testing.B) {
		for b.Loop() {
			_, _ = c.NormalizeID("923609016")
		}
	})
}
