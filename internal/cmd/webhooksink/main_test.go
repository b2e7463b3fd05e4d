package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/changes/webhook"
	"github.com/companyregistry/registry/internal/fakeclock"
	"github.com/companyregistry/registry/internal/leakcheck"
)

func TestMain(m *testing.M) { leakcheck.Main(m) }

// secret is the test vector's secret of Standard Webhooks 1.0.
const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

// signed returns a webhook request with its Standard Webhooks headers,
// signed with key at time at.
func signed(ctx context.Context, t *testing.T, url, id string, key []byte, at time.Time, body string) *http.Request {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url+"/hook", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set(webhook.HeaderID, id)
	req.Header.Set(webhook.HeaderTimestamp, strconv.FormatInt(at.Unix(), 10))
	req.Header.Set(webhook.HeaderSignature, webhook.Sign(key, id, at, []byte(body)))
	return req
}

// send posts a webhook signed with key at c's time and returns the
// status.
func send(t *testing.T, url, id string, key []byte, c *fakeclock.Clock, body string) int {
	t.Helper()
	resp, err := http.DefaultClient.Do(signed(context.Background(), t, url, id, key, c.Now(), body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func post(t *testing.T, url, body string) int {
	t.Helper()
	resp, err := http.Post(url, "text/plain", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func get(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	_, _ = b.ReadFrom(resp.Body)
	return b.String()
}

// TestSinkRecords: without a secret a webhook is 503; with it a good
// signature is 204, a bad one 401, the -fail count answers 500; the log
// has one line per request with its id, type, data.id, times, outcome and
// signature check.
func TestSinkRecords(t *testing.T) {
	c := fakeclock.New(time.Unix(1_700_000_000, 0))
	srv := httptest.NewServer(newSink(c.Now, time.Minute))
	defer srv.Close()
	key, err := webhook.ParseSecret(secret)
	if err != nil {
		t.Fatal(err)
	}
	body := `{"type":"company.name_changed","timestamp":"2023-11-14T22:13:20Z","data":{"id":"chg_1"}}`

	got := []int{send(t, srv.URL, "chg_1", key, c, body)} // no secret yet
	if s := post(t, srv.URL+"/control/secret", "not a secret"); s != http.StatusBadRequest {
		t.Errorf("a bad secret: %d, want 400", s)
	}
	post(t, srv.URL+"/control/secret", secret+"\n")
	post(t, srv.URL+"/control/fail?n=1", "")
	got = append(got, send(t, srv.URL, "chg_1", key, c, body)) // forced failure
	c.Advance(5 * time.Second)
	got = append(got, send(t, srv.URL, "chg_1", key, c, body))                   // retry: delivered
	got = append(got, send(t, srv.URL, "chg_2", []byte("another key"), c, body)) // bad signature
	if s := post(t, srv.URL+"/control/fail?n=-1", ""); s != http.StatusBadRequest {
		t.Errorf("a negative count: %d, want 400", s)
	}
	if diff := cmp.Diff([]int{503, 500, 204, 401}, got); diff != "" {
		t.Errorf("statuses (-want +got):\n%s", diff)
	}
	want := "1\tchg_1\tcompany.name_changed\tchg_1\t1700000000000000000\t1700000000000000000\t503\tnosecret\n" +
		"2\tchg_1\tcompany.name_changed\tchg_1\t1700000000000000000\t1700000000000000000\t500\tok\n" +
		"3\tchg_1\tcompany.name_changed\tchg_1\t1700000005000000000\t1700000005000000000\t204\tok\n" +
		"4\tchg_2\tcompany.name_changed\tchg_1\t1700000005000000000\t1700000005000000000\t401\tbad\n"
	if diff := cmp.Diff(want, get(t, srv.URL+"/control/log")); diff != "" {
		t.Errorf("log (-want +got):\n%s", diff)
	}
}

// TestSinkHoldUntilSenderGone: a held webhook is listed in /control/held
// and logged "open" while its sender waits; when the sender goes away
// (here its request is cancelled, as a killed process closes its
// connection) it is logged "gone" and no longer held.
func TestSinkHoldUntilSenderGone(t *testing.T) {
	c := fakeclock.New(time.Unix(1_700_000_000, 0))
	srv := httptest.NewServer(newSink(c.Now, time.Minute))
	defer srv.Close()
	key, _ := webhook.ParseSecret(secret)
	post(t, srv.URL+"/control/secret", secret)
	post(t, srv.URL+"/control/hold?n=1", "")

	ctx, cancel := context.WithCancel(context.Background())
	body := `{"type":"company.deleted","data":{"id":"chg_9"}}`
	req := signed(ctx, t, srv.URL, "chg_9", key, c.Now(), body)
	errc := make(chan error, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		errc <- err
	}()
	// Polling the sink's own state is how the script learns a request is
	// held; here it is the test's synchronisation on an observable state.
	for get(t, srv.URL+"/control/held") != "chg_9\n" {
		time.Sleep(time.Millisecond)
	}
	if diff := cmp.Diff("1\tchg_9\tcompany.deleted\tchg_9\t1700000000000000000\t-\topen\tok\n", get(t, srv.URL+"/control/log")); diff != "" {
		t.Errorf("log while held (-want +got):\n%s", diff)
	}
	c.Advance(3 * time.Second)
	cancel()
	if err := <-errc; err == nil {
		t.Fatal("the cancelled request succeeded")
	}
	want := "1\tchg_9\tcompany.deleted\tchg_9\t1700000000000000000\t1700000003000000000\tgone\tok\n"
	var log string
	for log = get(t, srv.URL+"/control/log"); strings.Contains(log, "open"); log = get(t, srv.URL+"/control/log") {
		time.Sleep(time.Millisecond)
	}
	if diff := cmp.Diff(want, log); diff != "" {
		t.Errorf("log after the sender went away (-want +got):\n%s", diff)
	}
	if h := get(t, srv.URL+"/control/held"); h != "" {
		t.Errorf("still held: %q", h)
	}
	// The next webhook is not held: the count was one.
	if s := send(t, srv.URL, "chg_10", key, c, body); s != http.StatusNoContent {
		t.Errorf("the next webhook: %d, want 204", s)
	}
}

// TestSinkHoldBound: a held webhook whose sender stays is answered 503
// after the bound.
func TestSinkHoldBound(t *testing.T) {
	c := fakeclock.New(time.Unix(1_700_000_000, 0))
	srv := httptest.NewServer(newSink(c.Now, time.Millisecond))
	defer srv.Close()
	key, _ := webhook.ParseSecret(secret)
	post(t, srv.URL+"/control/secret", secret)
	post(t, srv.URL+"/control/hold?n=1", "")
	if s := send(t, srv.URL, "chg_1", key, c, `{}`); s != http.StatusServiceUnavailable {
		t.Errorf("held past the bound: %d, want 503", s)
	}
	if diff := cmp.Diff("1\tchg_1\t-\t-\t1700000000000000000\t1700000000000000000\t503\tok\n", get(t, srv.URL+"/control/log")); diff != "" {
		t.Errorf("log (-want +got):\n%s", diff)
	}
}

// TestRunUsage: bad flags exit 2.
func TestRunUsage(t *testing.T) {
	for _, args := range [][]string{{"-hold-bound", "0s"}, {"-nope"}, {"-addr", "127.0.0.1:99999"}} {
		var out, errOut bytes.Buffer
		code := run(context.Background(), args, &out, &errOut)
		if code == 0 || out.Len() != 0 || errOut.Len() == 0 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want a failure with a message", args, code, out.String(), errOut.String())
		}
	}
}
