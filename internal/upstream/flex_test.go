package upstream

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFlexInt(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]FlexInt{
		`12`:                 {Value: 12, Set: true},
		`"12"`:               {Value: 12, Set: true},
		`12.0`:               {Value: 12, Set: true},
		`-3`:                 {Value: -3, Set: true},
		`12.5`:               {},
		`null`:               {},
		`""`:                 {},
		`"twelve"`:           {},
		`1e300`:              {},
		`true`:               {},
		`9007199254740993.0`: {},
	} {
		var got struct{ N FlexInt }
		if err := json.Unmarshal([]byte(`{"N":`+in+`}`), &got); err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		if diff := cmp.Diff(want, got.N); diff != "" {
			t.Errorf("%s (-want +got):\n%s", in, diff)
		}
	}
}

func TestFlexString(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]FlexString{
		`"1"`:       "1",
		`1`:         "1",
		`2025`:      "2025",
		`-7`:        "-7",
		`"a\u00e6"`: "aæ",
		`null`:      "",
		`true`:      "",
		`{"x":1}`:   "",
		`["1"]`:     "",
	} {
		var got struct{ S FlexString }
		if err := json.Unmarshal([]byte(`{"S":`+in+`}`), &got); err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		if got.S != want {
			t.Errorf("%s: got %q, want %q", in, got.S, want)
		}
	}
}
