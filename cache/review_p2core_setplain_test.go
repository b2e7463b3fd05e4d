package cache_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/companyregistry/registry/cache"
)

// TestReview_SetPlainDropsValueSetWouldKeep: Memory.SetPlain followed by
// Pack is documented (and doc/decisions.md says) to leave the cache as Set
// would have. A value whose plain size is over the bound (less the
// dictionaries) but whose compressed size fits is stored by Set and dropped
// by SetPlain, whose size check sees the plain length; Pack then finds
// nothing. The Registry stores every fetched answer with SetPlain, so with
// a small cache such an answer is never cached and each lookup asks the
// register again.
func TestReview_SetPlainDropsValueSetWouldKeep(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const bound = 256 << 10
	newMem := func() *cache.Memory {
		m, err := cache.NewMemory(cache.WithCompression(), cache.WithMaxBytes(bound))
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	doc := func(n int) []byte {
		return append([]byte(`r{"roles":[`), bytes.Repeat([]byte(`{"group":"board","role":"Board member"},`), n)...)
	}
	first, big := doc(500), doc(8000) // 20 KB: the dictionary; 320 KB, compresses to a few KB
	set, plain := newMem(), newMem()
	for _, kv := range []struct {
		key string
		v   []byte
	}{{"first", first}, {"big", big}} {
		if err := set.Set(ctx, kv.key, bytes.Clone(kv.v), time.Hour); err != nil {
			t.Fatal(err)
		}
		if err := plain.SetPlain(ctx, kv.key, bytes.Clone(kv.v), time.Hour); err != nil {
			t.Fatal(err)
		}
		plain.Pack(kv.key)
	}
	_, inSet, _ := set.Get(ctx, "big")
	_, inPlain, _ := plain.Get(ctx, "big")
	if !inSet {
		t.Fatal("Set did not keep the big value either; the test's sizes are off")
	}
	if !inPlain {
		t.Errorf("SetPlain then Pack dropped a %d-byte value that Set keeps (the cache counts %d bytes after Set, %d after SetPlain and Pack)",
			len(big), set.Bytes(), plain.Bytes())
	}
}
