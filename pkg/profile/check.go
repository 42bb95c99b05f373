package profile

import (
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"

	ptime "github.com/yaa110/go-persian-calendar"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/persian"
	"github.com/chapar/chapar/pkg/validate"
)

// Persian messages of the profile form.
const (
	MsgPersonType = "نوع شخص (حقیقی یا حقوقی) را انتخاب کنید"
	MsgSection    = "بخش پروفایل معتبر نیست"
	MsgBirthDate  = "تاریخ تولد باید به شکل ۱۳۷۰/۰۱/۲۰ و تاریخی گذشته باشد"
	MsgGender     = "جنسیت معتبر نیست"
	MsgWebsite    = "نشانی سایت اشتباه است"
	MsgTooLong    = "حداکثر %s کاراکتر مجاز است"
	MsgLandline   = "تلفن ثابت بدون کد شهر باید ۴ تا ۸ رقم باشد"
	MsgCityCode   = "کد شهر باید ۳ رقم و با صفر شروع شود، مانند ۰۲۱"
	MsgAddressMin = "نشانی باید دست‌کم ۱۰ کاراکتر باشد"
)

// maxText bounds every free-text field, in characters.
const maxText = 200

// check validates the section of a profile form; every bad field is answered.
func check(in UpdateInput) error {
	if in.Section != "" && in.Section != SectionPersonal && in.Section != SectionContact && in.Section != SectionAddress {
		return apperr.Field("section", MsgSection)
	}
	var errs []error
	if in.Section == SectionPersonal || in.Section == "" {
		errs = append(errs, checkPersonal(in.PersonType, in.Details)...)
	}
	if in.Section == SectionContact || in.Section == "" {
		errs = append(errs, checkContact(in.Details)...)
	}
	if in.Section == SectionAddress || in.Section == "" {
		errs = append(errs, checkAddress(in.Details)...)
	}
	errs = append(errs, checkLengths(in.Details)...)
	if f := validate.Collect(errs...); len(f) > 0 {
		return apperr.Fields(f).Err()
	}
	return nil
}

// checkPersonal validates the identity of a real or a legal person.
func checkPersonal(personType string, d Details) []error {
	switch personType {
	case Real:
		return []error{
			validate.InField("first_name", validate.NotBlank("first_name", d.FirstName)),
			validate.InField("last_name", validate.NotBlank("last_name", d.LastName)),
			validate.LatinOnly("first_name_en", d.FirstNameEn),
			validate.LatinOnly("last_name_en", d.LastNameEn),
			validate.NationalCode(d.NationalCode),
			birthDate(d.BirthDate),
			gender(d.Gender),
		}
	case Legal:
		return []error{
			validate.InField("company_name", validate.NotBlank("company_name", d.CompanyName)),
			validate.LatinOnly("company_name_en", d.CompanyNameEn),
			validate.RegistrationNumber(d.RegistrationNo),
			validate.Optional(d.EconomicNumber, validate.EconomicNumber),
			validate.CompanyNationalID(d.CompanyNationalID),
			validate.InField("ceo_national_code", validate.Optional(d.CEONationalCode, validate.NationalCode)),
		}
	}
	return []error{&validate.Error{Field: "person_type", Message: MsgPersonType}}
}

// checkContact validates the e-mail (required), landline with its city code, and site.
func checkContact(d Details) []error {
	errs := []error{validate.Email(d.Email), website(d.Website)}
	if d.Landline != "" || d.CityCode != "" {
		errs = append(errs, cityCode(d.CityCode), landline(d.CityCode, d.Landline))
	}
	return errs
}

// checkAddress validates the address (required) and its 10-digit postal code.
func checkAddress(d Details) []error {
	errs := []error{
		validate.InField("province", validate.NotBlank("province", d.Province)),
		validate.InField("city", validate.NotBlank("city", d.City)),
		validate.PostalCode(d.PostalCode),
	}
	if utf8.RuneCountInString(d.Address) < 10 {
		errs = append(errs, &validate.Error{Field: "address", Message: MsgAddressMin})
	}
	return errs
}

// checkLengths bounds every field (an address may be longer than the rest).
func checkLengths(d Details) []error {
	var errs []error
	names := []string{"first_name", "last_name", "first_name_en", "last_name_en", "national_code", "father_name",
		"birth_place", "birth_date", "gender", "company_name", "company_name_en", "registration_number",
		"economic_number", "company_national_id", "ceo_name", "ceo_national_code", "email", "city_code", "landline",
		"website", "province", "city", "address", "postal_code"}
	for i, f := range fields(&d) {
		limit := maxText
		if names[i] == "address" {
			limit = 2 * maxText
		}
		if utf8.RuneCountInString(*f) > limit || !validate.IsCleanText(*f) {
			errs = append(errs, &validate.Error{Field: names[i],
				Message: fmt.Sprintf(MsgTooLong, persian.Digits(fmt.Sprint(limit)))})
		}
	}
	return errs
}

// birthDate checks an optional Jalali date YYYY/MM/DD in the past (after 1300).
func birthDate(s string) error {
	if s == "" {
		return nil
	}
	var y, m, d int
	if n, err := fmt.Sscanf(s, "%4d/%2d/%2d", &y, &m, &d); n != 3 || err != nil || len(s) != 10 {
		return &validate.Error{Field: "birth_date", Message: MsgBirthDate}
	}
	t := ptime.Date(y, ptime.Month(m), d, 12, 0, 0, 0, ptime.Iran())
	if t.Year() != y || int(t.Month()) != m || t.Day() != d || y < 1300 || t.Time().After(ptime.Now().Time()) {
		return &validate.Error{Field: "birth_date", Message: MsgBirthDate}
	}
	return nil
}

func gender(s string) error {
	if s == "" || s == "male" || s == "female" {
		return nil
	}
	return &validate.Error{Field: "gender", Message: MsgGender}
}

// cityCode is a 3-digit area code with its leading zero (021, 031...).
func cityCode(s string) error {
	if err := validate.CityCode(s); err != nil || !strings.HasPrefix(s, "0") {
		return &validate.Error{Field: validate.FieldCityCode, Message: MsgCityCode}
	}
	return nil
}

// landline is the number without its city code: 4 to 8 digits, so that both
// together stay within the spec's 11 digits.
func landline(code, s string) error {
	if err := validate.Landline(code + s); err != nil {
		return err
	}
	if n := len(s); n < 4 || n > 8 || strings.Trim(s, "0123456789") != "" {
		return &validate.Error{Field: validate.FieldLandline, Message: MsgLandline}
	}
	return nil
}

// website is an optional http(s) address.
func website(s string) error {
	if s == "" {
		return nil
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || !strings.Contains(u.Host, ".") {
		return &validate.Error{Field: "website", Message: MsgWebsite}
	}
	return nil
}
