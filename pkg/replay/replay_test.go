package replay_test

import (
	"context"
	"testing"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/pkg/replay"
)

// TestReserveKeepForget: the first request takes a key, a second sees it running,
// then its kept answer; a freed key can be taken again.
func TestReserveKeepForget(t *testing.T) {
	ctx := context.Background()
	s := replay.New(testenv.RedisDB(t).Client)
	first, _, _, err := s.Reserve(ctx, "k", "h1")
	if err != nil || !first {
		t.Fatalf("first reserve: %v %v", first, err)
	}
	first, held, found, err := s.Reserve(ctx, "k", "h1")
	if err != nil || first || !found || held.Hash != "h1" || held.Status != 0 {
		t.Fatalf("while running: first %v found %v held %+v err %v", first, found, held, err)
	}
	if err := s.Keep(ctx, "k", replay.Answer{Hash: "h1", Status: 201, Body: []byte(`{"ok":1}`)}); err != nil {
		t.Fatal(err)
	}
	_, held, found, err = s.Reserve(ctx, "k", "h2")
	if err != nil || !found || held.Status != 201 || string(held.Body) != `{"ok":1}` || held.Hash != "h1" {
		t.Fatalf("after the answer: found %v held %+v err %v", found, held, err)
	}
	if err := s.Forget(ctx, "k"); err != nil {
		t.Fatal(err)
	}
	if first, _, _, err := s.Reserve(ctx, "k", "h2"); err != nil || !first {
		t.Fatalf("a freed key: %v %v", first, err)
	}
}
