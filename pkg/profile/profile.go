// Package profile owns an account's profile (spec §3 Profile, §5 identity rules):
// its identity as a real or legal person, contact and address details, its logo, the
// documents staff review, the owner's mobile changes (both numbers proven by codes,
// then staff review), the account's settings, its tariffs and price calculator, and
// its plan with the services that need an upgrade.
package profile

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/upload"
	"github.com/chapar/chapar/pkg/validate"
)

// Person types.
const (
	Real  = "real"
	Legal = "legal"
)

// The personal section (identity, national codes, birth date) is the owner's alone.
const (
	MsgPersonalOwnerOnly  = "اطلاعات هویتی حساب را فقط مالک حساب می‌بیند و ویرایش می‌کند"
	CodePersonalOwnerOnly = "profile-owner-only"
)

// Sections of the profile, each saved by its own page.
const (
	SectionPersonal = "personal"
	SectionContact  = "contact"
	SectionAddress  = "address"
)

// Details are the profile's fields (spec §3 Profile). Empty strings are unset.
type Details struct {
	// Real person.
	FirstName    string `json:"first_name"`
	LastName     string `json:"last_name"`
	FirstNameEn  string `json:"first_name_en"`
	LastNameEn   string `json:"last_name_en"`
	NationalCode string `json:"national_code"`
	FatherName   string `json:"father_name"`
	BirthPlace   string `json:"birth_place"`
	BirthDate    string `json:"birth_date"` // Jalali YYYY/MM/DD
	Gender       string `json:"gender"`     // male, female
	// Legal person.
	CompanyName       string `json:"company_name"`
	CompanyNameEn     string `json:"company_name_en"`
	RegistrationNo    string `json:"registration_number"`
	EconomicNumber    string `json:"economic_number"`
	CompanyNationalID string `json:"company_national_id"`
	CEOName           string `json:"ceo_name"`
	CEONationalCode   string `json:"ceo_national_code"`
	// Contact.
	Email    string `json:"email"`
	CityCode string `json:"city_code"`
	Landline string `json:"landline"`
	Website  string `json:"website"`
	// Address.
	Province   string `json:"province"`
	City       string `json:"city"`
	Address    string `json:"address"`
	PostalCode string `json:"postal_code"`
}

// Profile is the account's profile as the panel shows it.
type Profile struct {
	PersonType string    `json:"person_type"`
	Details    Details   `json:"details"`
	HasLogo    bool      `json:"has_logo"`
	Username   string    `json:"username"`
	Name       string    `json:"name"`
	Mobile     string    `json:"mobile"`
	IsOwner    bool      `json:"is_owner"`
	Plan       string    `json:"plan"`
	Complete   bool      `json:"complete"`
	UpdatedAt  time.Time `json:"updated_at"`
	// Documents counts the account's documents by status.
	Documents map[string]int `json:"documents"`
}

// Service manages profiles.
type Service struct {
	pool  *pgxpool.Pool
	store upload.Storage
	// Auth sends and checks the mobile change's step-up codes.
	Auth StepUps
	now  func() time.Time
}

// New returns the service, keeping logos and documents in store.
func New(pool *pgxpool.Pool, store upload.Storage, stepUps StepUps) *Service {
	return &Service{pool: pool, store: store, Auth: stepUps, now: time.Now}
}

// Get returns the caller's account profile (an empty real-person profile when none
// was saved yet).
func (s *Service) Get(ctx context.Context, id acl.Identity) (Profile, error) {
	p := Profile{PersonType: Real, Documents: map[string]int{}}
	var raw []byte
	var logo string
	var updated *time.Time
	err := s.pool.QueryRow(ctx, `SELECT u.username, u.name, u.mobile, u.is_owner, a.plan,
		coalesce(p.person_type, 'real'), coalesce(p.details, '{}'), coalesce(p.logo_key, ''), p.updated_at
		FROM users u JOIN accounts a ON a.id = u.account_id LEFT JOIN profiles p ON p.account_id = a.id
		WHERE u.id = $1 AND u.account_id = $2`, id.UserID, id.AccountID).
		Scan(&p.Username, &p.Name, &p.Mobile, &p.IsOwner, &p.Plan, &p.PersonType, &raw, &logo, &updated)
	if errors.Is(err, pgx.ErrNoRows) {
		return p, apperr.ErrNotFound
	}
	if err != nil {
		return p, fmt.Errorf("load profile: %w", err)
	}
	if err := json.Unmarshal(raw, &p.Details); err != nil {
		return p, fmt.Errorf("profile details: %w", err)
	}
	p.HasLogo = logo != ""
	if updated != nil {
		p.UpdatedAt = *updated
	}
	p.Complete = complete(p.PersonType, p.Details)
	if !id.Can(acl.ProfileManage) {
		// A colleague without the profile permission sees their own name and the
		// plan, not the account's details or documents.
		p.Details = Details{}
		return p, nil
	}
	if !id.IsOwner {
		p.Details = withoutPersonal(p.Details)
	}
	return p, s.countDocuments(ctx, id.AccountID, p.Documents)
}

// withoutPersonal blanks the owner's personal identity (national codes, birth date
// and place, father's name, gender): only the owner reads it.
func withoutPersonal(d Details) Details {
	for _, f := range personal(&d) {
		*f = ""
	}
	return d
}

// personal lists the owner's personal fields of d.
func personal(d *Details) []*string {
	return []*string{&d.NationalCode, &d.BirthDate, &d.BirthPlace, &d.FatherName, &d.Gender, &d.CEONationalCode}
}

func (s *Service) countDocuments(ctx context.Context, accountID int64, into map[string]int) error {
	rows, err := s.pool.Query(ctx, `SELECT status, count(*) FROM account_documents WHERE account_id = $1 GROUP BY status`, accountID)
	if err != nil {
		return fmt.Errorf("count documents: %w", err)
	}
	var st string
	var n int
	_, err = pgx.ForEachRow(rows, []any{&st, &n}, func() error { into[st] = n; return nil })
	if err != nil {
		return fmt.Errorf("count documents: %w", err)
	}
	return nil
}

// complete reports whether the identity, contact and address essentials are filled.
func complete(personType string, d Details) bool {
	identity := d.FirstName != "" && d.LastName != "" && d.NationalCode != ""
	if personType == Legal {
		identity = d.CompanyName != "" && d.RegistrationNo != "" && d.CompanyNationalID != ""
	}
	return identity && d.Email != "" && d.Address != "" && d.PostalCode != ""
}

// UpdateInput is a profile form: one section (or "" for all) of the details, and the
// person type with the personal section.
type UpdateInput struct {
	Section    string  `json:"section"`
	PersonType string  `json:"person_type"`
	Details    Details `json:"details"`
}

// Update validates a section of the profile and saves it over the stored one, in one
// audited transaction; every bad field is answered at once, in Persian.
func (s *Service) Update(ctx context.Context, id acl.Identity, in UpdateInput, ip string) (Profile, error) {
	if !id.IsOwner && (in.Section == SectionPersonal || in.Section == "") {
		return Profile{}, apperr.New(apperr.Forbidden, MsgPersonalOwnerOnly).WithCode(CodePersonalOwnerOnly)
	}
	in.Details = clean(in.Details)
	if err := check(in); err != nil {
		return Profile{}, err
	}
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		personType, before, err := lockProfile(ctx, tx, id.AccountID)
		if err != nil {
			return err
		}
		after := merge(before, in.Details, in.Section)
		if in.Section == SectionPersonal || in.Section == "" {
			personType = in.PersonType
		}
		raw, err := json.Marshal(after)
		if err != nil {
			return fmt.Errorf("profile details: %w", err)
		}
		if _, err := tx.Exec(ctx, `UPDATE profiles SET person_type = $2, details = $3, updated_by = $4, updated_at = now()
			WHERE account_id = $1`, id.AccountID, personType, raw, id.UserID); err != nil {
			return fmt.Errorf("save profile: %w", err)
		}
		return audit.Record(ctx, tx, audit.Entry{AccountID: id.AccountID, UserID: id.UserID, Action: "profile.update",
			TargetType: "profile", Target: sectionName(in.Section), IP: ip, Before: before, After: after})
	})
	if err != nil {
		return Profile{}, err
	}
	return s.Get(ctx, id)
}

// lockProfile creates the account's profile row if needed and locks it.
func lockProfile(ctx context.Context, tx pgx.Tx, accountID int64) (string, Details, error) {
	if _, err := tx.Exec(ctx, `INSERT INTO profiles (account_id) VALUES ($1) ON CONFLICT DO NOTHING`, accountID); err != nil {
		return "", Details{}, fmt.Errorf("create profile: %w", err)
	}
	var personType string
	var raw []byte
	var d Details
	err := tx.QueryRow(ctx, `SELECT person_type, details FROM profiles WHERE account_id = $1 FOR UPDATE`, accountID).
		Scan(&personType, &raw)
	if err != nil {
		return "", d, fmt.Errorf("lock profile: %w", err)
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		return "", d, fmt.Errorf("profile details: %w", err)
	}
	return personType, d, nil
}

// merge copies the section's fields of in over stored.
func merge(stored, in Details, section string) Details {
	out := stored
	if section == SectionPersonal || section == "" {
		out.FirstName, out.LastName, out.FirstNameEn, out.LastNameEn = in.FirstName, in.LastName, in.FirstNameEn, in.LastNameEn
		out.NationalCode, out.FatherName, out.BirthPlace = in.NationalCode, in.FatherName, in.BirthPlace
		out.BirthDate, out.Gender = in.BirthDate, in.Gender
		out.CompanyName, out.CompanyNameEn, out.RegistrationNo = in.CompanyName, in.CompanyNameEn, in.RegistrationNo
		out.EconomicNumber, out.CompanyNationalID = in.EconomicNumber, in.CompanyNationalID
		out.CEOName, out.CEONationalCode = in.CEOName, in.CEONationalCode
	}
	if section == SectionContact || section == "" {
		out.Email, out.CityCode, out.Landline, out.Website = in.Email, in.CityCode, in.Landline, in.Website
	}
	if section == SectionAddress || section == "" {
		out.Province, out.City, out.Address, out.PostalCode = in.Province, in.City, in.Address, in.PostalCode
	}
	return out
}

func sectionName(s string) string {
	if s == "" {
		return "all"
	}
	return s
}

// clean trims every field of d and turns the digits of its number fields Latin.
func clean(d Details) Details {
	for _, f := range fields(&d) {
		*f = strings.TrimSpace(*f)
	}
	for _, f := range []*string{&d.NationalCode, &d.RegistrationNo, &d.EconomicNumber, &d.CompanyNationalID,
		&d.CEONationalCode, &d.CityCode, &d.Landline, &d.PostalCode, &d.BirthDate} {
		*f = validate.NormalizeDigits(*f)
	}
	return d
}

func fields(d *Details) []*string {
	return []*string{&d.FirstName, &d.LastName, &d.FirstNameEn, &d.LastNameEn, &d.NationalCode, &d.FatherName,
		&d.BirthPlace, &d.BirthDate, &d.Gender, &d.CompanyName, &d.CompanyNameEn, &d.RegistrationNo, &d.EconomicNumber,
		&d.CompanyNationalID, &d.CEOName, &d.CEONationalCode, &d.Email, &d.CityCode, &d.Landline, &d.Website,
		&d.Province, &d.City, &d.Address, &d.PostalCode}
}
