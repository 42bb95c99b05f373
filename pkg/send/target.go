package send

import (
	"context"
	"math/rand/v2"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/bank"
	"github.com/chapar/chapar/pkg/operator"
)

// checkTarget checks a bank send's audience into p (docs/targeted-sends.md): its
// per-field errors join fields. A tower send reaches Irancell numbers only, and a
// random draw gets its seed here (never the request's), so the price and the
// expansion draw alike.
func (s *Service) checkTarget(ctx context.Context, r Request, p *prepared, fields apperr.Fields) error {
	if r.Target == nil {
		fields.Add("target", bank.MsgTargetRequired)
		return nil
	}
	t := *r.Target
	if err := t.Check(p.typ); err != nil {
		return mergeFields(err, fields)
	}
	if p.typ == bank.TypeTowerIrancell {
		t.Operators = []string{operator.Irancell}
	}
	if err := bank.CheckShape(ctx, s.pool, &t); err != nil {
		return mergeFields(err, fields)
	}
	// The seed is always the platform's: hashint8extended is public, so a seed the
	// customer chose would let it steer which numbers a draw holds.
	t.Seed = 0
	if t.Count > 0 {
		t.Seed = rand.Int64N(1<<53) + 1
	}
	p.src = Source{Target: &t}
	return nil
}

// mergeFields adds a form error's fields to fields; any other error is returned.
func mergeFields(err error, fields apperr.Fields) error {
	fe, ok := apperr.As(err)
	if !ok || fe.Kind != apperr.Invalid {
		return err
	}
	for k, msgs := range fe.Fields {
		for _, m := range msgs {
			fields.Add(k, m)
		}
	}
	return nil
}
