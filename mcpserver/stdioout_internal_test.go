package mcpserver

import (
	"bytes"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/internal/testwait"
)

// TestMarkWriterWriteIfNeverWaits: writeIf does not wait for a writer's
// lock held by another write (one blocked on a client that does not read
// its output would hold stdioIn's Read, and so the client's writes, for
// ever); with the lock free it writes only when room says so.
func TestMarkWriterWriteIfNeverWaits(t *testing.T) {
	var out bytes.Buffer
	mw := newListCache().stdioWriter(&out).(*markWriter)
	yes := func(int) bool { return true }
	mw.mu.Lock() // a write in progress
	done := make(chan bool, 1)
	go func() {
		wrote, _ := mw.writeIf([]byte("a\n"), yes)
		done <- wrote
	}()
	if testwait.Recv(t, done, "writeIf with the writer's lock held") {
		t.Error("writeIf wrote while another write held the lock")
	}
	mw.mu.Unlock()
	var asked []int
	if wrote, err := mw.writeIf([]byte("b\n"), func(n int) bool { asked = append(asked, n); return false }); wrote || err != nil {
		t.Errorf("writeIf with no room = %v, %v; want false, nil", wrote, err)
	}
	if wrote, err := mw.writeIf([]byte("cc\n"), yes); !wrote || err != nil {
		t.Errorf("writeIf with room = %v, %v; want true, nil", wrote, err)
	}
	if diff := cmp.Diff("cc\n", out.String()); diff != "" {
		t.Errorf("written (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{2}, asked); diff != "" {
		t.Errorf("room asked for (-want +got):\n%s", diff)
	}
}

// heldWriter records its writes; each waits for a value on release.
type heldWriter struct {
	release chan struct{}
	mu      sync.Mutex
	got     []string
}

func (w *heldWriter) Write(p []byte) (int, error) {
	<-w.release
	w.mu.Lock()
	w.got = append(w.got, string(p))
	w.mu.Unlock()
	return len(p), nil
}

// TestStdioOutDirect: an answer is written on the caller's goroutine when
// direct may write it and none waits for the writer; otherwise it waits
// behind those queued, so the answers go out in order.
func TestStdioOutDirect(t *testing.T) {
	w := &heldWriter{release: make(chan struct{}, 8)}
	var directs []string
	allow := true
	o := &stdioOut{w: w, direct: func(p []byte) (bool, error) {
		if !allow {
			return false, nil
		}
		directs = append(directs, string(p))
		return true, nil
	}}
	send := func(s string) {
		buf := o.bufs.get()
		buf.WriteString(s)
		o.send(buf)
	}
	send("1\n") // direct
	allow = false
	send("2\n") // no room: to the writer, which waits on release
	allow = true
	send("3\n") // the writer runs: behind 2, not direct
	w.release <- struct{}{}
	w.release <- struct{}{}
	o.stop()
	if diff := cmp.Diff([]string{"1\n"}, directs); diff != "" {
		t.Errorf("written directly (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"2\n", "3\n"}, w.got); diff != "" {
		t.Errorf("written by the writer (-want +got):\n%s", diff)
	}
}
