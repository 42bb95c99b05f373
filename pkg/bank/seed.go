package bank

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Bank sizes: what `make run` seeds and what the benchmark seeds.
const (
	DemoSize  = 300_000
	BenchSize = 10_000_000
	DemoSeed  = 1404
)

// Seed writes a generated bank of size numbers (and the geography, the business
// taxonomy and the towers) unless the same seed and size are there already. The
// tables are rewritten in one transaction, the numbers COPYed with their indexes
// dropped and built again after.
func Seed(ctx context.Context, pool *pgxpool.Pool, seed int64, size int) (bool, error) {
	var have bool
	if err := pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM bank_meta WHERE seed = $1 AND size = $2)`,
		seed, size).Scan(&have); err != nil {
		return false, fmt.Errorf("bank meta: %w", err)
	}
	if have {
		return false, nil
	}
	p, err := NewPlan(seed, size)
	if err != nil {
		return false, err
	}
	start := time.Now()
	err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `TRUNCATE bank_meta, bank_place_counts, bank_job_counts, bank_job_totals, bank_cell_counts, bank_numbers, bank_towers, job_subcategories, job_categories,
			geo_cities, geo_counties, geo_provinces`); err != nil {
			return fmt.Errorf("clear bank: %w", err)
		}
		if err := p.writeReference(ctx, tx); err != nil {
			return err
		}
		if err := p.writeNumbers(ctx, tx); err != nil {
			return err
		}
		slog.InfoContext(ctx, "number bank indexed", "took", time.Since(start).Round(time.Millisecond))
		if err := writeRollups(ctx, tx); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO bank_meta (seed, size) VALUES ($1, $2)`, seed, size)
		return err
	})
	if err != nil {
		return false, err
	}
	if _, err := pool.Exec(ctx, `VACUUM ANALYZE bank_numbers, bank_place_counts, bank_job_counts, bank_job_totals, bank_cell_counts`); err != nil {
		return false, fmt.Errorf("vacuum bank: %w", err)
	}
	slog.InfoContext(ctx, "number bank seeded", "size", size, "seed", seed, "took", time.Since(start).Round(time.Millisecond))
	return true, nil
}

// copyRows COPYs rows into a table.
func copyRows(ctx context.Context, tx pgx.Tx, table string, cols []string, rows [][]any) error {
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{table}, cols, pgx.CopyFromRows(rows)); err != nil {
		return fmt.Errorf("copy %s: %w", table, err)
	}
	return nil
}

// writeReference writes the provinces, counties, cities, categories and towers.
func (p *Plan) writeReference(ctx context.Context, tx pgx.Tx) error {
	var rows [][]any
	for _, v := range p.Geo.Provinces {
		rows = append(rows, []any{int16(v.Code), v.NameFa, v.NameEn, v.Lon, v.Lat})
	}
	if err := copyRows(ctx, tx, "geo_provinces", []string{"code", "name_fa", "name_en", "lon", "lat"}, rows); err != nil {
		return err
	}
	rows = rows[:0]
	for _, v := range p.Geo.Counties {
		rows = append(rows, []any{int16(v.Code), int16(v.Province), v.NameFa, v.NameEn, v.Lon, v.Lat})
	}
	if err := copyRows(ctx, tx, "geo_counties", []string{"code", "province", "name_fa", "name_en", "lon", "lat"}, rows); err != nil {
		return err
	}
	rows = rows[:0]
	for _, v := range p.Cities {
		rows = append(rows, []any{int32(v.ID), int16(v.Province), int16(v.County), v.NameFa, v.NameEn, v.Lon, v.Lat})
	}
	if err := copyRows(ctx, tx, "geo_cities", []string{"id", "province", "county", "name_fa", "name_en", "lon", "lat"}, rows); err != nil {
		return err
	}
	if err := writeTaxonomy(ctx, tx); err != nil {
		return err
	}
	rows = rows[:0]
	for _, t := range p.Towers {
		rows = append(rows, []any{int32(t.ID), int16(t.County), t.Lon, t.Lat})
	}
	return copyRows(ctx, tx, "bank_towers", []string{"id", "county", "lon", "lat"}, rows)
}

func writeTaxonomy(ctx context.Context, tx pgx.Tx) error {
	var cats, subs [][]any
	for _, c := range Categories() {
		cats = append(cats, []any{int16(c.ID), c.Name})
		for _, s := range c.Subs {
			subs = append(subs, []any{int16(s.ID), int16(c.ID), s.Name})
		}
	}
	if err := copyRows(ctx, tx, "job_categories", []string{"id", "name_fa"}, cats); err != nil {
		return err
	}
	return copyRows(ctx, tx, "job_subcategories", []string{"id", "category", "name_fa"}, subs)
}

var numberCols = []string{"id", "operator", "province", "county", "city", "postal", "lon", "lat", "tower",
	"category", "subcategory", "gender", "age_band"}

// writeNumbers drops bank_numbers' indexes, COPYs the numbers and builds the
// indexes again from their own definitions.
func (p *Plan) writeNumbers(ctx context.Context, tx pgx.Tx) error {
	start := time.Now()
	defs, err := dropIndexes(ctx, tx)
	if err != nil {
		return err
	}
	buf := make([][]any, 0, 20_000)
	flush := func() error {
		err := copyRows(ctx, tx, "bank_numbers", numberCols, buf)
		buf = buf[:0]
		return err
	}
	err = p.Numbers(func(ns []Number) error {
		for _, n := range ns {
			buf = append(buf, n.row())
			if len(buf) == cap(buf) {
				if err := flush(); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err == nil && len(buf) > 0 {
		err = flush()
	}
	if err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `SET LOCAL maintenance_work_mem = '512MB'`); err != nil {
		return fmt.Errorf("index memory: %w", err)
	}
	slog.InfoContext(ctx, "number bank written", "took", time.Since(start).Round(time.Millisecond))
	for _, d := range defs {
		if _, err := tx.Exec(ctx, d); err != nil {
			return fmt.Errorf("build index: %w", err)
		}
	}
	return nil
}

// nullable turns a generator's zero into NULL.
func nullable[T int16 | int32](v int) *T {
	if v == 0 {
		return nil
	}
	x := T(v)
	return &x
}

func (n Number) row() []any {
	return []any{n.ID, n.Operator, int16(n.Province), int16(n.County), nullable[int32](n.City), n.Postal, n.Lon, n.Lat,
		nullable[int32](n.Tower), nullable[int16](n.Category), nullable[int16](n.SubCategory), nullable[int16](n.Gender),
		nullable[int16](n.AgeBand)}
}

// dropIndexes drops bank_numbers' secondary indexes and returns their definitions.
func dropIndexes(ctx context.Context, tx pgx.Tx) ([]string, error) {
	rows, err := tx.Query(ctx, `SELECT i.indexname, i.indexdef FROM pg_indexes i
		WHERE i.tablename = 'bank_numbers' AND i.schemaname = current_schema() AND i.indexname <> 'bank_numbers_pkey'`)
	if err != nil {
		return nil, fmt.Errorf("list bank indexes: %w", err)
	}
	var names, defs []string
	for rows.Next() {
		var n, d string
		if err := rows.Scan(&n, &d); err != nil {
			rows.Close()
			return nil, err
		}
		names, defs = append(names, n), append(defs, d)
	}
	rows.Close()
	for _, n := range names {
		if _, err := tx.Exec(ctx, "DROP INDEX "+pgx.Identifier{n}.Sanitize()); err != nil {
			return nil, fmt.Errorf("drop index %s: %w", n, err)
		}
	}
	return defs, rows.Err()
}
