package phonebook

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/persian"
	"github.com/chapar/chapar/pkg/spreadsheet"
	"github.com/chapar/chapar/pkg/validate"
)

// exportChunk is how many rows one keyset step of an export reads.
const exportChunk = 5000

// GenderNames are the Persian names of the genders.
var GenderNames = map[string]string{GenderMale: "مرد", GenderFemale: "زن"}

// WriteContactsXLSX writes the contacts the filter selects (all of them, newest
// first) as an Excel file to w: number, name, gender, birth date, phonebook, tags,
// one column per feature and the date added. Nothing is written to w when the
// filter is invalid or a read fails.
func (s *Service) WriteContactsXLSX(ctx context.Context, accountID int64, f Filter, w io.Writer) error {
	fs, err := s.loadFeatures(ctx, s.pool, accountID)
	if err != nil {
		return err
	}
	where, err := s.build(ctx, accountID, f, fs)
	if err != nil {
		return err
	}
	features, _, err := s.Features(ctx, accountID, Page{Page: 1, Limit: 10_000})
	if err != nil {
		return err
	}
	tags, err := s.tagNamesByID(ctx, accountID)
	if err != nil {
		return err
	}
	header := []any{"شماره موبایل", "نام", "جنسیت", "تاریخ تولد", "گروه", "برچسب‌ها"}
	widths := []float64{16, 24, 8, 12, 20, 24}
	for _, ft := range features {
		header, widths = append(header, ft.TitleFa), append(widths, 16)
	}
	header, widths = append(header, "تاریخ ایجاد (شمسی)"), append(widths, 18)
	b, err := spreadsheet.New("مخاطبین", header, widths)
	if err != nil {
		return err
	}
	defer b.Close()
	n := len(where.args)
	sql := qContactCols + ` WHERE ` + where.sql() + fmt.Sprintf(` AND c.id < $%d ORDER BY c.id DESC LIMIT %d`, n+1, exportChunk)
	row := make([]any, len(header))
	after := int64(1<<63 - 1)
	for !where.none {
		rows, err := s.pool.Query(ctx, sql, custom(append(where.args, after))...)
		if err != nil {
			return fmt.Errorf("export contacts: %w", err)
		}
		chunk, err := pgx.CollectRows(rows, scanContact)
		if err != nil {
			return fmt.Errorf("export contacts: %w", err)
		}
		for i := range chunk {
			c := &chunk[i]
			values := fs.featureOut(c.features)
			row[0], row[1], row[2], row[3], row[4] = validate.LocalMobile(c.Number), c.Name, GenderNames[c.Gender], "", c.PhonebookName
			if c.BirthDate != nil {
				row[3] = *c.BirthDate
			}
			names := make([]string, 0, len(c.tagIDs))
			for _, id := range c.tagIDs {
				names = append(names, tags[id])
			}
			row[5] = strings.Join(names, "، ")
			for j, ft := range features {
				row[6+j] = values[ft.TitleEn]
			}
			row[len(row)-1] = persian.JalaliDateTime(c.CreatedAt)
			if err := b.Add(row); err != nil {
				return err
			}
		}
		if len(chunk) < exportChunk {
			break
		}
		after = chunk[len(chunk)-1].ID
	}
	return b.Finish(w)
}

// tagNamesByID maps every tag of the account to its name.
func (s *Service) tagNamesByID(ctx context.Context, accountID int64) (map[int64]string, error) {
	rows, err := s.pool.Query(ctx, `SELECT id, name FROM contact_tags WHERE account_id = $1`, accountID)
	if err != nil {
		return nil, fmt.Errorf("read tags: %w", err)
	}
	out := map[int64]string{}
	var id int64
	var name string
	if _, err := pgx.ForEachRow(rows, []any{&id, &name}, func() error { out[id] = name; return nil }); err != nil {
		return nil, fmt.Errorf("read tags: %w", err)
	}
	return out, nil
}

// WriteListXLSX writes every number of one list (newest first) as an Excel file.
func (s *Service) WriteListXLSX(ctx context.Context, accountID int64, kind string, w io.Writer) error {
	kind, err := checkKind(kind)
	if err != nil {
		return err
	}
	b, err := spreadsheet.New(ListNames[kind], []any{"شماره موبایل", "لیست", "منبع", "تاریخ ورود به لیست (شمسی)"}, []float64{16, 20, 16, 18})
	if err != nil {
		return err
	}
	defer b.Close()
	// Keyset on (created_at, mobile), the list index's order.
	after, afterMobile := time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC), ""
	row := make([]any, 4)
	for {
		rows, err := s.pool.Query(ctx, `SELECT mobile, kind, source, created_at FROM blacklist
			WHERE account_id = $1 AND kind = $2 AND (created_at, mobile) < ($3, $4)
			ORDER BY created_at DESC, mobile DESC LIMIT $5`, accountID, kind, after, afterMobile, exportChunk)
		if err != nil {
			return fmt.Errorf("export list: %w", err)
		}
		chunk, err := pgx.CollectRows(rows, pgx.RowToStructByPos[ListEntry])
		if err != nil {
			return fmt.Errorf("export list: %w", err)
		}
		for _, e := range chunk {
			row[0], row[1], row[2], row[3] = validate.LocalMobile(e.Number), ListNames[e.Kind], ListNames[e.Source], persian.JalaliDateTime(e.CreatedAt)
			if err := b.Add(row); err != nil {
				return err
			}
		}
		if len(chunk) < exportChunk {
			break
		}
		last := chunk[len(chunk)-1]
		after, afterMobile = last.CreatedAt, last.Number
	}
	return b.Finish(w)
}

// WriteImportSample writes a sample import file: the mobile column, the contact
// fields and the account's enabled features that serve imports, with two rows.
func (s *Service) WriteImportSample(ctx context.Context, accountID int64, w io.Writer) error {
	features, _, err := s.Features(ctx, accountID, Page{Page: 1, Limit: 10_000})
	if err != nil {
		return err
	}
	header := []any{"شماره موبایل", "نام", "جنسیت", "تاریخ تولد", "برچسب‌ها"}
	rows := [][]any{
		{"09121234567", "علی رضایی", "مرد", "1370/05/12", "مشتری ویژه، تهران"},
		{"09351234567", "مریم احمدی", "زن", "1995-08-03", "مشتری"},
	}
	widths := []float64{16, 20, 8, 12, 24}
	samples := map[string][2]any{TypeText: {"نمونه", "متن"}, TypeInteger: {12, 7}, TypeDate: {"1402/01/15", "2024-01-01"}}
	for _, f := range features {
		if !f.Enabled || !slices.Contains(f.Flows, FlowImport) {
			continue
		}
		header, widths = append(header, f.TitleFa), append(widths, 16)
		for i := range rows {
			rows[i] = append(rows[i], samples[f.Type][i])
		}
	}
	b, err := spreadsheet.New("مخاطبین", header, widths)
	if err != nil {
		return err
	}
	defer b.Close()
	for _, r := range rows {
		if err := b.Add(r); err != nil {
			return err
		}
	}
	return b.Finish(w)
}
