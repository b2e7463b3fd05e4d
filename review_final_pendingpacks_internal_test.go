package registry

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/companyregistry/registry/cache"
)

// TestReview_PendingPacksUndercountsBatch (internal.go PendingPacks,
// cachekeys.go packQueue.drain): PendingPacks is documented as "how many
// answers wait for their compression, or are being compressed", and
// counts len(q.keys)+1 while the drain runs. But drain takes the whole
// queue as one batch, so while it compresses that batch the queue is
// empty and PendingPacks says 1 however many of the batch are still
// plain. (The same batch is also outside maxPending: while it is
// compressed, 4,096 more keys may queue, so up to 8,192 answers wait
// plain, not the 4,096 maxPending's comment says.)
//
// The test queues 300 plain answers and runs the drain; when
// PendingPacks first says 1 or less, it reads the cache's bytes, and
// compares them with the bytes once the drain has ended: the difference
// is what the answers still plain at that moment were going to save. It
// can only pass wrongly (if the whole batch were compressed between the
// two reads), never fail wrongly: packing only lowers Bytes.
func TestReview_PendingPacksUndercountsBatch(t *testing.T) {
	m, err := cache.NewMemory(cache.WithCompression(), cache.WithMaxBytes(1<<30))
	if err != nil {
		t.Fatal(err)
	}
	r := &Registry{}
	v := bytes.Repeat([]byte(`{"name":"OPULENS NÆRING 4 AS","orgnr":"914375916"},`), 2000)
	const n = 300
	keys := make([]string, n)
	for i := range n {
		keys[i] = fmt.Sprint("k", i)
		b := bytes.Clone(v)
		b[len(b)-1] = byte(i)
		if err := m.SetPlain(context.Background(), keys[i], b, time.Hour); err != nil {
			t.Fatal(err)
		}
	}
	r.packs.mu.Lock()
	r.packs.keys, r.packs.running = keys, true // as add leaves them, before the drain starts
	r.packs.mu.Unlock()
	done := make(chan struct{})
	go func() { r.packs.drain(m); close(done) }()
	a := adapter{r}
	for a.PendingPacks() > 1 {
		runtime.Gosched()
	}
	atOne := m.Bytes()
	<-done
	if a.PendingPacks() != 0 {
		t.Fatalf("PendingPacks = %d after the drain ended", a.PendingPacks())
	}
	if saved := atOne - m.Bytes(); saved > int64(len(v)) {
		t.Errorf("PendingPacks said 1 while answers still plain were to save %d bytes (about %d answers of %d bytes each)",
			saved, saved/int64(len(v)), len(v))
	}
}
