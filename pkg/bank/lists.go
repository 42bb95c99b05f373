package bank

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/validate"
)

// Place is a province, county, city, category or sub-category with how many numbers
// of the bank it holds.
type Place struct {
	ID       int     `json:"id"`
	Name     string  `json:"name"`
	Parent   int     `json:"parent_id,omitempty"`
	Count    int64   `json:"count"`
	Lon      float64 `json:"lon,omitempty"`
	Lat      float64 `json:"lat,omitempty"`
	Province int     `json:"province_id,omitempty"`
}

// Messages of the lists.
const (
	MsgProvinceRequired = "لطفا استان را انتخاب کنید"
	MsgCategoryRequired = "لطفا صنف را انتخاب کنید"
	MsgAreaTooLarge     = "محدوده نقشه برای نمایش دکل‌ها بزرگ است؛ نقشه را بزرگ‌نمایی کنید"
)

func (s *Service) places(ctx context.Context, sql string, args ...any) ([]Place, error) {
	rows, err := s.pool.Query(ctx, sql, args...)
	if err != nil {
		return nil, fmt.Errorf("bank list: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Place, error) {
		var p Place
		var id, parent int32
		err := r.Scan(&id, &p.Name, &parent, &p.Count, &p.Lon, &p.Lat)
		p.ID, p.Parent = int(id), int(parent)
		return p, err
	})
	if err != nil {
		return nil, fmt.Errorf("bank list: %w", err)
	}
	return out, nil
}

// placesByName is places sorted by name in Persian alphabetical order.
func (s *Service) placesByName(ctx context.Context, sql string, args ...any) ([]Place, error) {
	out, err := s.places(ctx, sql, args...)
	validate.SortPersian(out, func(p Place) string { return p.Name })
	return out, err
}

// Provinces lists the provinces with their counts, in Persian alphabetical order
// (as are the counties and cities).
func (s *Service) Provinces(ctx context.Context) ([]Place, error) {
	return s.placesByName(ctx, `SELECT p.code::int, p.name_fa, 0, coalesce(c.n, 0)::bigint, p.lon, p.lat FROM geo_provinces p
		LEFT JOIN (SELECT province, sum(n) AS n FROM bank_place_counts GROUP BY 1) c ON c.province = p.code
		ORDER BY p.code`)
}

// Counties lists a province's counties with their counts.
func (s *Service) Counties(ctx context.Context, province int) ([]Place, error) {
	if province <= 0 {
		return nil, apperr.Field("province_id", MsgProvinceRequired)
	}
	return s.placesByName(ctx, `SELECT k.code::int, k.name_fa, k.province::int, coalesce(c.n, 0)::bigint, k.lon, k.lat
		FROM geo_counties k LEFT JOIN (SELECT county, sum(n) AS n FROM bank_place_counts WHERE province = $1 GROUP BY 1) c
		ON c.county = k.code WHERE k.province = $1 ORDER BY k.code`, province)
}

// Cities lists a province's cities (or one county's) with their counts.
func (s *Service) Cities(ctx context.Context, province, county int) ([]Place, error) {
	if province <= 0 && county <= 0 {
		return nil, apperr.Field("province_id", MsgProvinceRequired)
	}
	return s.placesByName(ctx, `SELECT t.id, t.name_fa, t.county::int, coalesce(c.n, 0)::bigint, t.lon, t.lat
		FROM geo_cities t LEFT JOIN (SELECT city, sum(n) AS n FROM bank_place_counts
			WHERE ($1 = 0 OR province = $1) AND ($2 = 0 OR county = $2) GROUP BY 1) c ON c.city = t.id
		WHERE ($1 = 0 OR t.province = $1) AND ($2 = 0 OR t.county = $2) ORDER BY t.id`, province, county)
}

// JobCategories lists the business categories with their counts.
func (s *Service) JobCategories(ctx context.Context) ([]Place, error) {
	return s.places(ctx, `SELECT j.id::int, j.name_fa, 0, coalesce(c.n, 0)::bigint, 0::float8, 0::float8 FROM job_categories j
		LEFT JOIN (SELECT category, sum(n) AS n FROM bank_job_totals GROUP BY 1) c
		ON c.category = j.id ORDER BY j.id`)
}

// JobSubCategories lists a category's sub-categories with their counts.
func (s *Service) JobSubCategories(ctx context.Context, category int) ([]Place, error) {
	if category <= 0 {
		return nil, apperr.Field("category_id", MsgCategoryRequired)
	}
	return s.places(ctx, `SELECT j.id::int, j.name_fa, j.category::int, coalesce(c.n, 0)::bigint, 0::float8, 0::float8
		FROM job_subcategories j LEFT JOIN bank_job_totals c
		ON c.subcategory = j.id WHERE j.category = $1 ORDER BY j.id`, category)
}

// Box is a map view: its south-west and north-east corners.
type Box struct {
	MinLon float64 `form:"min_lon"`
	MinLat float64 `form:"min_lat"`
	MaxLon float64 `form:"max_lon"`
	MaxLat float64 `form:"max_lat"`
}

// maxTowerBox is the largest view (square degrees) whose towers are listed.
const maxTowerBox = 4.0

// Towers lists the Irancell cells inside a map view (at most 3,000).
func (s *Service) Towers(ctx context.Context, b Box) ([]Tower, error) {
	if b.MaxLon <= b.MinLon || b.MaxLat <= b.MinLat {
		return nil, apperr.Field("min_lon", MsgShapeRequired)
	}
	if (b.MaxLon-b.MinLon)*(b.MaxLat-b.MinLat) > maxTowerBox {
		return nil, apperr.Field("min_lon", MsgAreaTooLarge)
	}
	rows, err := s.pool.Query(ctx, `SELECT id, county, lon, lat FROM bank_towers
		WHERE lon BETWEEN $1 AND $3 AND lat BETWEEN $2 AND $4 ORDER BY id LIMIT 3000`, b.MinLon, b.MinLat, b.MaxLon, b.MaxLat)
	if err != nil {
		return nil, fmt.Errorf("towers: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Tower, error) {
		var t Tower
		var county int16
		err := r.Scan(&t.ID, &county, &t.Lon, &t.Lat)
		t.County = int(county)
		return t, err
	})
	if err != nil {
		return nil, fmt.Errorf("towers: %w", err)
	}
	return out, nil
}
