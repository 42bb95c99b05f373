// Package replay keeps the answers of the public API's create requests by their
// Idempotency-Key in Redis, so a client's retry gets the first answer instead of a
// second action: a key is reserved while its first request runs, holds the answer
// for a day once it ends, and is freed when the first request failed on our side.
package replay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// TTL is how long a key's answer is kept.
const TTL = 24 * time.Hour

// Answer is what a key holds: the hash of the first request's body and, once that
// request has ended, its status and body (Status 0 while it runs).
type Answer struct {
	Hash   string `json:"hash"`
	Status int    `json:"status,omitempty"`
	Body   []byte `json:"body,omitempty"`
}

// Store keeps the answers in Redis.
type Store struct{ rdb redis.UniversalClient }

// New returns the store on rdb.
func New(rdb redis.UniversalClient) *Store { return &Store{rdb: rdb} }

// Reserve takes key for a first request with body hash hash and returns nil. When
// the key was taken before, it returns what the key holds: a Status of 0 means the
// first request still runs (or the key expired in between).
func (s *Store) Reserve(ctx context.Context, key, hash string) (*Answer, error) {
	pending, _ := json.Marshal(Answer{Hash: hash})
	ok, err := s.rdb.SetNX(ctx, key, pending, TTL).Result()
	if err != nil || ok {
		return nil, wrap(err)
	}
	held := &Answer{Hash: hash}
	raw, err := s.rdb.Get(ctx, key).Bytes()
	if errors.Is(err, redis.Nil) {
		return held, nil
	}
	if err == nil {
		err = json.Unmarshal(raw, held)
	}
	return held, wrap(err)
}

// Keep stores the first request's answer under key.
func (s *Store) Keep(ctx context.Context, key string, a Answer) error {
	done, _ := json.Marshal(a)
	return wrap(s.rdb.Set(ctx, key, done, TTL).Err())
}

// Forget frees key (its first request failed on our side: a retry may run again).
func (s *Store) Forget(ctx context.Context, key string) error {
	return wrap(s.rdb.Del(ctx, key).Err())
}

func wrap(err error) error {
	if err != nil {
		return fmt.Errorf("idempotency key: %w", err)
	}
	return nil
}
