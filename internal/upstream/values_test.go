package upstream

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/countrykit"
)

func TestTriPtr(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   Tri
		want *bool
	}{
		{Unknown, nil},
		{Yes, countrykit.Ptr(true)},
		{No, countrykit.Ptr(false)},
		{Tri(42), nil},
	}
	for _, tt := range tests {
		got := tt.in.Ptr()
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Tri(%d).Ptr() (-want +got):\n%s", tt.in, diff)
		}
	}
	if a, b := Yes.Ptr(), Yes.Ptr(); a == b {
		t.Error("Ptr returned the same pointer twice, want a fresh one")
	}
}

func TestCloneBool(t *testing.T) {
	t.Parallel()
	if CloneBool(nil) != nil {
		t.Error("CloneBool(nil) != nil")
	}
	b := true
	c := CloneBool(&b)
	if c == &b || c == nil || !*c {
		t.Fatalf("CloneBool(&true) = %v, want a fresh true", c)
	}
	b = false
	if !*c {
		t.Error("the copy changed with the original")
	}
}

func TestDate(t *testing.T) {
	t.Parallel()
	d := func(s string) *registry.Date {
		v, err := registry.ParseDate(s)
		if err != nil {
			t.Fatal(err)
		}
		return &v
	}
	tests := []struct {
		in   string
		want *registry.Date
	}{
		{"", nil},
		{"2024-02-29", d("2024-02-29")},
		{" 2024-02-29\n", d("2024-02-29")},
		{"2025-02-29", nil},
		{"2024-02-29T00:00:00", nil},
		{"29.02.2024", nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, Date(tt.in)); diff != "" {
			t.Errorf("Date(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestTriString(t *testing.T) {
	t.Parallel()
	for tri, want := range map[Tri]string{Yes: "yes", No: "no", Unknown: "unknown", Tri(9): "unknown"} {
		if got := tri.String(); got != want {
			t.Errorf("%d: %q, want %q", tri, got, want)
		}
	}
}
