package changes

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/internal/ops"
)

// MaxRequestBytes is the largest body of a watch request (create or
// change): 10,000 identifiers as people write them fit with room to
// spare.
const MaxRequestBytes = 1 << 20

// WatchRequest is the body of a watch's creation:
//
//	{"country":"NO","ids":["923609016"],"kinds":["status_changed"],"url":"https://…"}
//
// Kinds nil (absent or null) is every kind.
type WatchRequest struct {
	Country string
	IDs     []string
	Kinds   []Kind
	URL     string
}

// WatchPatch is the body of a watch's change; every member is optional:
//
//	{"add_ids":["…"],"remove_ids":["…"],"kinds":["name_changed"],"url":"https://…","disabled":false}
//
// kinds [] or null is every kind; "disabled": false re-enables a disabled
// watch (a new url does too).
type WatchPatch struct {
	AddIDs    []string
	RemoveIDs []string
	// Kinds is nil when absent; a pointer to nil for every kind.
	Kinds *[]Kind
	// URL is nil when absent.
	URL *string
	// Enable is set by "disabled": false.
	Enable bool
}

// Hints of a malformed request body.
const (
	createHint = `Send a JSON object like {"country":"NO","ids":["923609016"],"kinds":["status_changed"],"url":"https://hooks.example.com/registry"}: ` +
		"country and ids are required, kinds is optional (all kinds when absent), url is an https URL."
	patchHint = `Send a JSON object with any of add_ids, remove_ids (arrays of identifiers), kinds (an array of kinds; [] for all), ` +
		`url (an https URL) and "disabled": false (to enable a disabled watch), for example {"add_ids":["974760673"]}.`
)

func badBody(hint, format string, args ...any) *registry.Error {
	return &registry.Error{Code: registry.CodeBadRequest, Message: fmt.Sprintf(format, args...), Hint: hint}
}

// members decodes a JSON object into its members, refusing anything else
// and any member not in allowed (the error names the least unknown name,
// [ops.UnknownMember], so that it does not depend on map order; an empty
// name is one).
func members(body []byte, hint string, allowed ...string) (map[string]json.RawMessage, error) {
	if len(body) > MaxRequestBytes {
		return nil, badBody(hint, "The body is larger than %d bytes.", MaxRequestBytes)
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, badBody(hint, "The body is empty; it must be a JSON object.")
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil || m == nil {
		return nil, badBody(hint, "The body is not a JSON object.")
	}
	if unknown, found := ops.UnknownMember(m, allowed...); found {
		return nil, badBody(hint, "The body has an unknown member %s; the members are %s.", ops.Quote(unknown), strings.Join(allowed, ", "))
	}
	return m, nil
}

// stringMember decodes a string member; null or absent is "".
func stringMember(m map[string]json.RawMessage, name, hint string) (string, bool, error) {
	raw, ok := m[name]
	if !ok || string(bytes.TrimSpace(raw)) == "null" {
		return "", false, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false, badBody(hint, "%s must be a string.", name)
	}
	return s, true, nil
}

// stringsMember decodes an array of strings; null or absent is nil with
// present false.
func stringsMember(m map[string]json.RawMessage, name, hint string) ([]string, bool, error) {
	raw, ok := m[name]
	if !ok || string(bytes.TrimSpace(raw)) == "null" {
		return nil, false, nil
	}
	var list []*string
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, false, badBody(hint, "%s must be an array of strings.", name)
	}
	out := make([]string, len(list))
	for i, s := range list {
		if s == nil {
			return nil, false, badBody(hint, "%s[%d] is null; %s must be an array of strings.", name, i, name)
		}
		out[i] = *s
	}
	return out, true, nil
}

func kindsOf(list []string) []Kind {
	out := make([]Kind, len(list))
	for i, s := range list {
		out[i] = Kind(s)
	}
	return out
}

// ParseWatchRequest decodes the body of a watch's creation (at most
// [MaxRequestBytes], a JSON object with the members country, ids, kinds
// and url, no other). It checks the shape only: the identifiers, kinds
// and URL are checked by [Service.CreateWatch]. A malformed body is a
// bad_request error.
func ParseWatchRequest(body []byte) (WatchRequest, error) {
	m, err := members(body, createHint, "country", "ids", "kinds", "url")
	if err != nil {
		return WatchRequest{}, err
	}
	var r WatchRequest
	var ok bool
	if r.Country, ok, err = stringMember(m, "country", createHint); err != nil {
		return WatchRequest{}, err
	} else if !ok {
		return WatchRequest{}, badBody(createHint, "The body has no country.")
	}
	if r.IDs, ok, err = stringsMember(m, "ids", createHint); err != nil {
		return WatchRequest{}, err
	} else if !ok {
		return WatchRequest{}, badBody(createHint, "The body has no ids.")
	}
	kinds, ok, err := stringsMember(m, "kinds", createHint)
	if err != nil {
		return WatchRequest{}, err
	}
	if ok {
		r.Kinds = kindsOf(kinds)
	}
	if r.URL, ok, err = stringMember(m, "url", createHint); err != nil {
		return WatchRequest{}, err
	} else if !ok {
		return WatchRequest{}, badBody(createHint, "The body has no url.")
	}
	return r, nil
}

// ParseWatchPatch decodes the body of a watch's change (at most
// [MaxRequestBytes], a JSON object with any of add_ids, remove_ids, kinds,
// url and disabled, no other). It checks the shape only. A malformed body,
// or one that changes nothing, is a bad_request error.
func ParseWatchPatch(body []byte) (WatchPatch, error) {
	m, err := members(body, patchHint, "add_ids", "remove_ids", "kinds", "url", "disabled")
	if err != nil {
		return WatchPatch{}, err
	}
	var p WatchPatch
	if p.AddIDs, _, err = stringsMember(m, "add_ids", patchHint); err != nil {
		return WatchPatch{}, err
	}
	if p.RemoveIDs, _, err = stringsMember(m, "remove_ids", patchHint); err != nil {
		return WatchPatch{}, err
	}
	if raw, ok := m["kinds"]; ok {
		kinds, _, err := stringsMember(m, "kinds", patchHint)
		if err != nil {
			return WatchPatch{}, err
		}
		k := kindsOf(kinds)
		if len(k) == 0 || string(bytes.TrimSpace(raw)) == "null" {
			k = nil
		}
		p.Kinds = &k
	}
	if _, ok := m["url"]; ok {
		u, present, err := stringMember(m, "url", patchHint)
		if err != nil {
			return WatchPatch{}, err
		}
		if !present {
			return WatchPatch{}, badBody(patchHint, "url cannot be null: a watch always has an endpoint.")
		}
		p.URL = &u
	}
	if raw, ok := m["disabled"]; ok {
		var disabled bool
		if err := json.Unmarshal(raw, &disabled); err != nil {
			return WatchPatch{}, badBody(patchHint, "disabled must be false (to enable the watch); a watch is disabled only by its endpoint's failures.")
		}
		if disabled {
			return WatchPatch{}, badBody(patchHint, `"disabled": true is not accepted: a watch is disabled only by its endpoint's failures; delete it to stop it.`)
		}
		p.Enable = true
	}
	if len(p.AddIDs) == 0 && len(p.RemoveIDs) == 0 && p.Kinds == nil && p.URL == nil && !p.Enable {
		return WatchPatch{}, badBody(patchHint, "The body changes nothing.")
	}
	return p, nil
}

// rotateHint is the hint of a malformed body of a secret's rotation.
const rotateHint = "Send no body, or an empty JSON object {}: a rotation takes no parameters."

// jsonSpace is JSON's white space (RFC 8259 § 2): a rotation's body of
// nothing else is no body.
const jsonSpace = " \t\r\n"

// ParseRotateRequest checks the body of a secret's rotation
// ([Service.RotateSecret]): none (or only JSON's white space) or an empty JSON
// object; anything else is a bad_request error, so that a member meant to
// choose something (a secret of the caller's) is not silently ignored.
func ParseRotateRequest(body []byte) error {
	if len(body) > MaxRequestBytes {
		return badBody(rotateHint, "The body is larger than %d bytes.", MaxRequestBytes)
	}
	if len(bytes.Trim(body, jsonSpace)) == 0 {
		return nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil || m == nil {
		return badBody(rotateHint, "The body is not a JSON object.")
	}
	if name, found := ops.UnknownMember(m); found {
		return badBody(rotateHint, "The body has a member %s; a rotation takes none.", ops.Quote(name))
	}
	return nil
}
