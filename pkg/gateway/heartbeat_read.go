package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/redis/go-redis/v9"

	"github.com/chapar/chapar/jobs"
)

// ErrNoBind is returned by AnyBound when no gateway reports a bound SMPP bind.
var ErrNoBind = errors.New("no smpp gateway has a bound bind")

// AnyBound checks the gateways' heartbeats for at least one bound bind (the API's
// readiness check).
func AnyBound(ctx context.Context, rdb redis.UniversalClient) error {
	hbs, err := Heartbeats(ctx, rdb)
	if err != nil {
		return err
	}
	for _, hb := range hbs {
		for _, b := range hb.Binds {
			if b.Bound {
				return nil
			}
		}
	}
	return ErrNoBind
}

// Heartbeats are the heartbeats of the gateways alive now (each expires ten
// seconds after its gateway's last); one that cannot be read is left out.
func Heartbeats(ctx context.Context, rdb redis.UniversalClient) ([]Heartbeat, error) {
	var out []Heartbeat
	iter := rdb.Scan(ctx, 0, jobs.GatewayHeartbeat+"*", 100).Iterator()
	for iter.Next(ctx) {
		raw, err := rdb.Get(ctx, iter.Val()).Bytes()
		if err != nil {
			continue
		}
		var hb Heartbeat
		if json.Unmarshal(raw, &hb) != nil {
			continue
		}
		out = append(out, hb)
	}
	if err := iter.Err(); err != nil {
		return nil, fmt.Errorf("read gateway heartbeats: %w", err)
	}
	return out, nil
}
