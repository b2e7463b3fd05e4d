package gb

import (
	"encoding/json"
	"testing"
)

// BenchmarkMapProfile measures the mapping of a decoded company profile to a
// report.
func BenchmarkMapProfile(b *testing.B) {
	var p profile
	if err := json.Unmarshal(recording(b, "company_profile_active_ltd_08957400_2024.json"), &p); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = mapProfile("08957400", &p)
	}
}

// BenchmarkDecodeAndMapProfile measures decoding the JSON body and mapping
// it, the work of a Lookup without the network.
func BenchmarkDecodeAndMapProfile(b *testing.B) {
	body := recording(b, "company_profile_active_ltd_08957400_2024.json")
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		var p profile
		if err := json.Unmarshal(body, &p); err != nil {
			b.Fatal(err)
		}
		_ = mapProfile("08957400", &p)
	}
}

// BenchmarkMapSearch measures mapping and scoring a page of 15 search hits.
func BenchmarkMapSearch(b *testing.B) {
	var page searchPage
	if err := json.Unmarshal(recording(b, "search_companies_q-you_2019.json"), &page); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = mapSearch("you", 100, &page)
	}
}
