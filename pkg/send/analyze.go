package send

import (
	"context"
	"errors"
	"log/slog"

	"github.com/jackc/pgx/v5"
)

// DefaultAnalyzeFrom is Service.AnalyzeFrom's default: an expansion of this many
// recipients or more analyzes the partition it loaded.
const DefaultAnalyzeFrom = 50_000

// analyzeLoaded refreshes the planner's statistics of the recipients partition
// that an expansion of n recipients loaded, when n is large (AnalyzeFrom), as
// PostgreSQL advises after a bulk load. The gateway's and the receipt path's
// statements run hundreds of times a second as prepared statements, and a plan a
// connection cached while the month's partition was nearly empty reads the
// whole partition at each call once a campaign has filled it (measured: a
// 1,000,000-recipient campaign spent most of PostgreSQL's time in such scans).
// An ANALYZE invalidates those plans at once; autovacuum would, but only at its
// next round, and not at all where it is off. It runs after the batches are
// queued, so the send does not wait for it; a failure is logged, not retried.
func (s *Service) analyzeLoaded(ctx context.Context, sendID int64, n int) {
	from := s.AnalyzeFrom
	if from <= 0 {
		from = DefaultAnalyzeFrom
	}
	if n < from {
		return
	}
	var part string
	err := s.pool.QueryRow(ctx, `SELECT tableoid::regclass::text FROM recipients WHERE send_id = $1 LIMIT 1`, sendID).
		Scan(&part)
	if errors.Is(err, pgx.ErrNoRows) {
		return
	}
	if err == nil {
		// part is a relation name PostgreSQL printed itself (quoted when it must be).
		_, err = s.pool.Exec(ctx, `ANALYZE `+part)
	}
	if err != nil {
		slog.WarnContext(ctx, "analyze the recipients partition after a large expansion", "send", sendID, "err", err)
	}
}
