package validate

import (
	"errors"
	"strings"
)

// Persian messages shown to the user. They are exported so that the API, the
// worker and the tests use exactly the same text.
const (
	MsgRequired            = "این فیلد الزامی است"
	MsgRulesNotAccepted    = "پذیرش قوانین الزامی است"
	MsgMobile              = "لطفا شماره موبایل صحیح وارد کنید"
	MsgPasswordTooShort    = "رمز عبور باید حداقل ۸ کاراکتر باشد"
	MsgPasswordWeak        = "رمز عبور باید شامل عدد، حرف کوچک و حرف بزرگ انگلیسی باشد"
	MsgPasswordHasUsername = "رمز عبور نباید شامل نام کاربری باشد"
	MsgPasswordMismatch    = "رمز عبور و تکرار آن یکسان نیستند"
	MsgPasswordSpecialHint = "برای امنیت بیشتر از کاراکترهای خاص مانند @!$%& استفاده کنید"
	MsgNationalCodeMust10  = "کد ملی باید ۱۰ رقم باشد"
	MsgNationalCodeInvalid = "کد ملی معتبر نیست"
	MsgPostalCode          = "کد پستی باید ۱۰ رقم باشد"
	MsgLandline            = "شماره تلفن ثابت باید حداکثر ۱۱ رقم باشد"
	MsgCityCode            = "کد شهر باید ۳ رقم باشد"
	MsgRegistrationNumber  = "شماره ثبت شرکت باید بین ۳ تا ۱۵ رقم باشد"
	MsgEconomicNumber      = "کد اقتصادی باید بین ۳ تا ۱۲ رقم باشد"
	MsgCompanyNationalID   = "شناسه ملی شرکت باید بین ۳ تا ۱۱ رقم باشد"
	MsgEmail               = "ایمیل معتبر نیست"
	MsgLatinOnly           = "در این فیلد فقط حروف انگلیسی مجاز است"
	MsgFeatureName         = "نام انگلیسی ویژگی فقط می‌تواند شامل حروف انگلیسی، عدد و خط تیره باشد"
)

// KeyNationalCodeMust10 is the spec's message key for MsgNationalCodeMust10.
const KeyNationalCodeMust10 = "NationalCode_Must_10"

// Default field names used by the checks. They match the JSON field names of
// the API; InField relabels an error for a differently named field.
const (
	FieldMobile               = "mobile"
	FieldPassword             = "password"
	FieldPasswordConfirmation = "password_confirmation"
	FieldNationalCode         = "national_code"
	FieldPostalCode           = "postal_code"
	FieldLandline             = "landline"
	FieldCityCode             = "city_code"
	FieldRegistrationNumber   = "registration_number"
	FieldEconomicNumber       = "economic_number"
	FieldCompanyNationalID    = "company_national_id"
	FieldEmail                = "email"
	FieldFeatureName          = "latin_name"
	FieldRules                = "rules"
)

// Error is a validation failure of one field. Message is the Persian text
// shown to the user; Error returns it unchanged.
type Error struct {
	Field   string
	Message string
}

// Error returns the Persian message.
func (e *Error) Error() string { return e.Message }

func fail(field, msg string) error { return &Error{Field: field, Message: msg} }

// Required returns the "this field is required" error for field.
func Required(field string) *Error {
	return &Error{Field: field, Message: MsgRequired}
}

// NotBlank returns Required(field) when value is empty or only whitespace.
func NotBlank(field, value string) error {
	if strings.TrimSpace(value) == "" {
		return Required(field)
	}
	return nil
}

// RulesAccepted fails with MsgRulesNotAccepted unless the rules were accepted
// (registration needs it).
func RulesAccepted(accepted bool) error {
	if !accepted {
		return fail(FieldRules, MsgRulesNotAccepted)
	}
	return nil
}

// Optional runs check only when value is not blank, for fields the user may
// leave empty.
func Optional(value string, check func(string) error) error {
	if strings.TrimSpace(value) == "" {
		return nil
	}
	return check(value)
}

// InField returns err relabelled to field. A nil err stays nil and an error
// that is not a *Error is returned unchanged.
func InField(field string, err error) error {
	var ve *Error
	if errors.As(err, &ve) {
		return &Error{Field: field, Message: ve.Message}
	}
	return err
}

// Collect groups the non-nil errors by field, in the shape of the API
// envelope's meta.errors. A message is listed once per field. Errors that are
// not a *Error are listed under the empty field name. It returns nil when all
// errs are nil.
func Collect(errs ...error) map[string][]string {
	var out map[string][]string
	for _, err := range errs {
		if err == nil {
			continue
		}
		field, msg := "", err.Error()
		var ve *Error
		if errors.As(err, &ve) {
			field, msg = ve.Field, ve.Message
		}
		if out == nil {
			out = make(map[string][]string)
		}
		dup := false
		for _, m := range out[field] {
			if m == msg {
				dup = true
				break
			}
		}
		if !dup {
			out[field] = append(out[field], msg)
		}
	}
	return out
}
