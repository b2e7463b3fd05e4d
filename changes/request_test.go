package changes_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
)

// TestParseWatchRequest: the members of the create body; kinds
// optional; anything else refused with a hint that shows a good body.
func TestParseWatchRequest(t *testing.T) {
	t.Parallel()
	got, err := changes.ParseWatchRequest([]byte(`{"country":"NO","ids":["923609016"],"kinds":["status_changed"],"url":"https://h.example.com/x"}`))
	if err != nil {
		t.Fatal(err)
	}
	want := changes.WatchRequest{Country: "NO", IDs: []string{"923609016"}, Kinds: []changes.Kind{"status_changed"}, URL: "https://h.example.com/x"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	got, err = changes.ParseWatchRequest([]byte(`{"country":"NO","ids":["1"],"kinds":null,"url":"u"}`))
	if err != nil || got.Kinds != nil {
		t.Errorf("kinds null: %+v, %v", got, err)
	}
	for body, message := range map[string]string{
		``:                                     "empty",
		`[]`:                                   "not a JSON object",
		`null`:                                 "not a JSON object",
		`{"ids":["1"],"url":"u"}`:              "no country",
		`{"country":"NO","url":"u"}`:           "no ids",
		`{"country":"NO","ids":["1"]}`:         "no url",
		`{"country":"NO","ids":"1","url":"u"}`: "ids must be an array of strings",
		`{"country":"NO","ids":[null],"url":"u"}`:                                                   "ids[0] is null",
		`{"country":"NO","ids":[1],"url":"u"}`:                                                      "ids must be an array of strings",
		`{"country":1,"ids":["1"],"url":"u"}`:                                                       "country must be a string",
		`{"country":"NO","ids":["1"],"url":"u","kinds":"name_changed"}`:                             "kinds must be an array",
		`{"country":"NO","ids":["1"],"url":"u","id":"x","zz":1}`:                                    `unknown member "id"`,
		`{"country":"NO","ids":["1"],"url":"u","":1}`:                                               `unknown member ""`,
		`{"country":"NO","ids":["1"],"url":"u"} x`:                                                  "not a JSON object",
		`{"country":"NO","ids":["` + strings.Repeat("1", changes.MaxRequestBytes) + `"],"url":"u"}`: "larger than",
	} {
		_, err := changes.ParseWatchRequest([]byte(body))
		e := asError(t, err)
		if e.Code != registry.CodeBadRequest || !strings.Contains(e.Message, message) || !strings.Contains(e.Hint, `{"country":"NO"`) {
			t.Errorf("%.60s: %s %q %q", body, e.Code, e.Message, e.Hint)
		}
	}
}

// TestParseWatchPatch: each member alone; kinds [] and null are every
// kind; disabled only false; an empty change is refused.
func TestParseWatchPatch(t *testing.T) {
	t.Parallel()
	got, err := changes.ParseWatchPatch([]byte(`{"add_ids":["a"],"remove_ids":["b"],"kinds":["name_changed"],"url":"https://x","disabled":false}`))
	if err != nil {
		t.Fatal(err)
	}
	kinds := []changes.Kind{"name_changed"}
	url := "https://x"
	want := changes.WatchPatch{AddIDs: []string{"a"}, RemoveIDs: []string{"b"}, Kinds: &kinds, URL: &url, Enable: true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	for _, body := range []string{`{"kinds":[]}`, `{"kinds":null}`} {
		got, err := changes.ParseWatchPatch([]byte(body))
		if err != nil || got.Kinds == nil || *got.Kinds != nil {
			t.Errorf("%s: %+v, %v", body, got, err)
		}
	}
	for body, message := range map[string]string{
		`{}`:                    "changes nothing",
		`{"add_ids":[]}`:        "changes nothing",
		`{"url":null}`:          "url cannot be null",
		`{"disabled":true}`:     "not accepted",
		`{"disabled":"no"}`:     "disabled must be false",
		`{"ids":["1"]}`:         `unknown member "ids"`,
		`{"remove_ids":[true]}`: "remove_ids must be an array of strings",
	} {
		_, err := changes.ParseWatchPatch([]byte(body))
		if e := asError(t, err); e.Code != registry.CodeBadRequest || !strings.Contains(e.Message, message) || !strings.Contains(e.Hint, "add_ids") {
			t.Errorf("%s: %s %q", body, e.Code, e.Message)
		}
	}
}

// FuzzParseWatchRequest: any body is a request or a bad_request, never a
// panic.
func FuzzParseWatchRequest(f *testing.F) {
	for _, s := range []string{`{"country":"NO","ids":["923609016"],"kinds":["status_changed"],"url":"https://h/x"}`,
		`{"country":null,"ids":[null]}`, `{"a":1,"b":2}`, `[`, `{"ids":[""],"country":"","url":"","kinds":[]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		r, err := changes.ParseWatchRequest(body)
		if err != nil {
			if asError(t, err).Code != registry.CodeBadRequest {
				t.Fatalf("code %v", err)
			}
			return
		}
		if r.IDs == nil {
			t.Fatalf("accepted without ids: %q", body)
		}
	})
}

// FuzzParseWatchPatch: any body is a change or a bad_request, never a
// panic; an accepted one changes something.
func FuzzParseWatchPatch(f *testing.F) {
	for _, s := range []string{`{"add_ids":["a"]}`, `{"kinds":[]}`, `{"disabled":false}`, `{"url":"x"}`, `{}`, `{"kinds":[null]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		p, err := changes.ParseWatchPatch(body)
		if err != nil {
			if asError(t, err).Code != registry.CodeBadRequest {
				t.Fatalf("code %v", err)
			}
			return
		}
		if len(p.AddIDs) == 0 && len(p.RemoveIDs) == 0 && p.Kinds == nil && p.URL == nil && !p.Enable {
			t.Fatalf("accepted an empty change: %q", body)
		}
	})
}

// TestQuotesKeepPersonalNumbersOut: a watch body's unknown member, an
// unknown kind and an out-of-range limit are quoted by the rule every door
// uses (ops.Quote, ops.Number): not when they have the form of a Swedish
// personal identity number (810105-2382 is one); other values as before.
func TestQuotesKeepPersonalNumbersOut(t *testing.T) {
	t.Parallel()
	const hidden = "(not quoted: it has the form of a personal identity number)"
	f := newFixture(t)
	ctx := context.Background()
	message := func(err error) string { return asError(t, err).Message }
	_, unknownMember := changes.ParseWatchRequest([]byte(`{"country":"NO","ids":["1"],"url":"u","810105-2382":1}`))
	_, unknownName := changes.ParseWatchRequest([]byte(`{"country":"NO","ids":["1"],"url":"u","idz":1}`))
	_, kind := f.svc.CreateWatch(ctx, owner, changes.WatchRequest{Country: "NO", IDs: []string{equinor},
		Kinds: []changes.Kind{"810105-2382"}, URL: "https://hooks.example.com/x"})
	_, plainKind := f.svc.CreateWatch(ctx, owner, changes.WatchRequest{Country: "NO", IDs: []string{equinor},
		Kinds: []changes.Kind{"bankrupt"}, URL: "https://hooks.example.com/x"})
	_, limit := f.svc.Feed(ctx, owner, "", 8101052382)
	_, plainLimit := f.svc.Feed(ctx, owner, "", 1001)
	got := map[string]string{
		"member": message(unknownMember), "member, a name": message(unknownName),
		"kind": message(kind), "kind, a word": message(plainKind),
		"limit": message(limit), "limit, a number": message(plainLimit),
	}
	want := map[string]string{
		"member":          "The body has an unknown member " + hidden + "; the members are country, ids, kinds, url.",
		"member, a name":  `The body has an unknown member "idz"; the members are country, ids, kinds, url.`,
		"kind":            hidden + " is not a kind of change.",
		"kind, a word":    `"bankrupt" is not a kind of change.`,
		"limit":           fmt.Sprintf("limit must be an integer from 1 to %d; got %s.", changes.MaxFeedLimit, hidden),
		"limit, a number": fmt.Sprintf("limit must be an integer from 1 to %d; got 1001.", changes.MaxFeedLimit),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
}

// FuzzParseRotateRequest: any body is accepted or a bad_request, never a
// panic; accepted exactly when it is JSON white space only (RFC 8259 § 2,
// written out here) or a JSON object with no member (encoding/json's
// reading), within changes.MaxRequestBytes.
func FuzzParseRotateRequest(f *testing.F) {
	for _, s := range []string{"", " \n", "\t", "\r\n", "\v", "\u00a0", "{}", " { } ", `{"secret":"x"}`, `{"":1}`, `[]`, `null`, `{`, `{} {}`, "\ufeff{}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		err := changes.ParseRotateRequest(body)
		if err != nil && asError(t, err).Code != registry.CodeBadRequest {
			t.Fatalf("code %v", err)
		}
		var m map[string]json.RawMessage
		want := len(body) <= changes.MaxRequestBytes &&
			(len(bytes.Trim(body, " \t\r\n")) == 0 || json.Unmarshal(body, &m) == nil && m != nil && len(m) == 0)
		if got := err == nil; got != want {
			t.Fatalf("%q: accepted %v, want %v (%v)", body, got, want, err)
		}
	})
}
