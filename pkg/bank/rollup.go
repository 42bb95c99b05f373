package bank

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
)

// Cell levels of bank_cell_counts: a cell of level L is 1/2^L degree square.
// bank_numbers.cell is the key at maxLevel.
const (
	minLevel = 4
	maxLevel = 10
	cellBits = 20
	cellMask = 1<<cellBits - 1
)

// operatorIndex numbers the operators in a group key (migration 0090): operator
// × 18 + gender × 6 + age band, groupKeys keys in all.
var operatorIndex = []string{"mci", "irancell", "rightel"}

const groupKeys = 3 * 18

// groupKeySQL is a number's group in bank_cell_counts.
const groupKeySQL = `((array_position(ARRAY['mci', 'irancell', 'rightel'], operator) - 1) * 18
	+ coalesce(gender, 0) * 6 + coalesce(age_band, 0))::smallint`

// writeRollups rewrites the place, business (and their per-sub-category totals)
// and cell counts from bank_numbers.
func writeRollups(ctx context.Context, tx pgx.Tx) error {
	steps := []struct{ name, sql string }{
		{"place counts", `INSERT INTO bank_place_counts SELECT province, county, coalesce(city, 0), postal,
			operator, coalesce(gender, 0), coalesce(age_band, 0), count(*) FROM bank_numbers GROUP BY 1, 2, 3, 4, 5, 6, 7`},
		{"business counts", `INSERT INTO bank_job_counts SELECT province, category, subcategory,
			operator, coalesce(gender, 0), coalesce(age_band, 0), count(*) FROM bank_numbers
			WHERE category IS NOT NULL GROUP BY 1, 2, 3, 4, 5, 6`},
		{"business totals", `INSERT INTO bank_job_totals SELECT category, subcategory, sum(n) FROM bank_job_counts GROUP BY 1, 2`},
		{"cell groups", `CREATE TEMP TABLE cell_groups ON COMMIT DROP AS SELECT ` + fmt.Sprint(maxLevel) +
			`::smallint AS level, cell, ` + groupKeySQL + ` AS k, count(*)::int AS n FROM bank_numbers GROUP BY 2, 3`},
	}
	for l := maxLevel - 1; l >= minLevel; l-- {
		steps = append(steps, struct{ name, sql string }{"cell level", fmt.Sprintf(`INSERT INTO cell_groups
			SELECT %d, ((cell >> %d) << %d) | ((cell & %d) >> 1), k, sum(n) FROM cell_groups WHERE level = %d GROUP BY 2, 3`,
			l, cellBits+1, cellBits, cellMask, l+1)})
	}
	// The two arrays of a group see its rows in the same order (one aggregation):
	// no sort is needed to keep them side by side.
	steps = append(steps, struct{ name, sql string }{"cell counts", `INSERT INTO bank_cell_counts
		SELECT level, cell, array_agg(k), array_agg(n) FROM cell_groups GROUP BY 1, 2`})
	// Grouping millions of rows in the default 4 MB would spill to disk.
	if _, err := tx.Exec(ctx, `SET LOCAL work_mem = '256MB'`); err != nil {
		return fmt.Errorf("roll-up memory: %w", err)
	}
	for _, s := range steps {
		start := time.Now()
		if _, err := tx.Exec(ctx, s.sql); err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
		slog.InfoContext(ctx, "number bank roll-up", "step", s.name, "took", time.Since(start).Round(time.Millisecond))
	}
	return nil
}
