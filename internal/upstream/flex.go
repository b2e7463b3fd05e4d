package upstream

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
)

// FlexInt is an integer a register sends as a JSON number or a numeric
// string. Set is false when the field is absent, null or not a whole number.
type FlexInt struct {
	Value int64
	Set   bool
}

// UnmarshalJSON accepts 12, 12.0, "12" and null; anything else leaves the
// value unset rather than failing the whole document.
func (f *FlexInt) UnmarshalJSON(b []byte) error {
	*f = FlexInt{}
	s := string(bytes.Trim(b, `"`))
	if s == "null" || s == "" {
		return nil
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		*f = FlexInt{Value: n, Set: true}
		return nil
	}
	if x, err := strconv.ParseFloat(s, 64); err == nil && x == math.Trunc(x) && math.Abs(x) < 1<<53 {
		*f = FlexInt{Value: int64(x), Set: true}
	}
	return nil
}

// FlexString is a code or a year a register sends as a JSON string or
// number ("2025" or 2025).
type FlexString string

// UnmarshalJSON accepts a string, a number or null; any other JSON value
// (true, an object) leaves it empty rather than failing the whole document.
func (f *FlexString) UnmarshalJSON(b []byte) error {
	*f = ""
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*f = FlexString(s)
		return nil
	}
	if len(b) > 0 && (b[0] == '-' || (b[0] >= '0' && b[0] <= '9')) {
		*f = FlexString(b)
	}
	return nil
}
