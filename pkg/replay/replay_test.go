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
	held, err := s.Reserve(ctx, "k", "h1")
	if err != nil || held != nil {
		t.Fatalf("first reserve: %+v %v", held, err)
	}
	held, err = s.Reserve(ctx, "k", "h1")
	if err != nil || held == nil || held.Hash != "h1" || held.Status != 0 {
		t.Fatalf("while running: held %+v err %v", held, err)
	}
	if err := s.Keep(ctx, "k", replay.Answer{Hash: "h1", Status: 201, Body: []byte(`{"ok":1}`)}); err != nil {
		t.Fatal(err)
	}
	held, err = s.Reserve(ctx, "k", "h2")
	if err != nil || held == nil || held.Status != 201 || string(held.Body) != `{"ok":1}` || held.Hash != "h1" {
		t.Fatalf("after the answer: held %+v err %v", held, err)
	}
	if err := s.Forget(ctx, "k"); err != nil {
		t.Fatal(err)
	}
	if held, err := s.Reserve(ctx, "k", "h2"); err != nil || held != nil {
		t.Fatalf("a freed key: %+v %v", held, err)
	}
}
