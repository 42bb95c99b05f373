package validate

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// wantErr checks that err is a *Error with the given field and message, or
// nil when msg is empty.
func wantErr(t *testing.T, call string, err error, field, msg string) {
	t.Helper()
	if msg == "" {
		if err != nil {
			t.Errorf("%s = %v; want nil", call, err)
		}
		return
	}
	var ve *Error
	if !errors.As(err, &ve) {
		t.Errorf("%s = %v; want *Error %q", call, err, msg)
		return
	}
	if ve.Message != msg || ve.Field != field || err.Error() != msg {
		t.Errorf("%s = {%q, %q}; want {%q, %q}", call, ve.Field, ve.Message, field, msg)
	}
}

// nationalCodeCheck computes the check digit independently of NationalCode:
// it walks the nine digits from the right with weights 2, 3, ... 10.
func nationalCodeCheck(nine string) byte {
	sum := 0
	for pos := 0; pos < 9; pos++ {
		d := int(nine[8-pos] - '0')
		sum += d * (pos + 2)
	}
	r := sum % 11
	if r < 2 {
		return byte('0' + r)
	}
	return byte('0' + 11 - r)
}

func makeNationalCode(nine string) string {
	return nine + string(nationalCodeCheck(nine))
}

func TestNationalCodeHelper(t *testing.T) {
	// Known codes, checked by hand, keep the test helper honest.
	for _, c := range []string{"0499370899", "0084575948", "1111111111"} {
		if got := makeNationalCode(c[:9]); got != c {
			t.Errorf("makeNationalCode(%q) = %q, want %q", c[:9], got, c)
		}
	}
}

func TestNationalCode(t *testing.T) {
	valid := []string{
		"0499370899",
		"0084575948",
		"۰۴۹۹۳۷۰۸۹۹", // Persian digits
		"٠٤٩٩٣٧٠٨٩٩", // Arabic-Indic digits
		" 0499370899 ",
	}
	// Codes built by the independent helper, including ones whose remainder
	// is 0 or 1 (check digit = remainder).
	for _, nine := range []string{"001234567", "123456789", "987654321", "274910563", "000000001", "100000000", "999999998", "432109876"} {
		valid = append(valid, makeNationalCode(nine))
	}
	remainders := map[int]bool{}
	for i := 0; len(remainders) < 11 && i < 100000; i++ {
		nine := fmt.Sprintf("%09d", i*7919%1000000000)
		sum := 0
		for k := 0; k < 9; k++ {
			sum += int(nine[k]-'0') * (10 - k)
		}
		if !remainders[sum%11] {
			remainders[sum%11] = true
			valid = append(valid, makeNationalCode(nine))
		}
	}
	if len(remainders) != 11 {
		t.Fatalf("generated codes cover %d remainders, want 11", len(remainders))
	}
	for _, c := range valid {
		if strings.Count(strings.TrimSpace(c), strings.TrimSpace(c)[:1]) == 10 {
			continue
		}
		wantErr(t, fmt.Sprintf("NationalCode(%q)", c), NationalCode(c), "", "")
	}

	tests := []struct{ in, msg string }{
		{"", MsgNationalCodeMust10},
		{"   ", MsgNationalCodeMust10},
		{"049937089", MsgNationalCodeMust10},   // 9 digits
		{"04993708990", MsgNationalCodeMust10}, // 11 digits
		{"049937089a", MsgNationalCodeMust10},
		{"0499-370899", MsgNationalCodeMust10},
		{"049937089۹۹", MsgNationalCodeMust10},
		{"0499370890", MsgNationalCodeInvalid}, // wrong check digit
		{"0499370898", MsgNationalCodeInvalid},
		{"1234567890", MsgNationalCodeInvalid},
		{"۰۴۹۹۳۷۰۸۹۰", MsgNationalCodeInvalid},
	}
	// Every all-same-digit code is rejected, even when its check digit fits
	// (0000000000 and 1111111111 ... 9999999999 all do).
	for d := '0'; d <= '9'; d++ {
		tests = append(tests, struct{ in, msg string }{strings.Repeat(string(d), 10), MsgNationalCodeInvalid})
	}
	// Every wrong last digit of a valid code is rejected.
	for d := byte('0'); d <= '9'; d++ {
		if d != '9' {
			tests = append(tests, struct{ in, msg string }{"049937089" + string(d), MsgNationalCodeInvalid})
		}
	}
	for _, tt := range tests {
		wantErr(t, fmt.Sprintf("NationalCode(%q)", tt.in), NationalCode(tt.in), FieldNationalCode, tt.msg)
	}
}

func TestDigitFields(t *testing.T) {
	type check struct {
		name   string
		fn     func(string) error
		field  string
		msg    string
		lo, hi int
	}
	checks := []check{
		{"PostalCode", PostalCode, FieldPostalCode, MsgPostalCode, 10, 10},
		{"Landline", Landline, FieldLandline, MsgLandline, 1, 11},
		{"CityCode", CityCode, FieldCityCode, MsgCityCode, 3, 3},
		{"RegistrationNumber", RegistrationNumber, FieldRegistrationNumber, MsgRegistrationNumber, 3, 15},
		{"EconomicNumber", EconomicNumber, FieldEconomicNumber, MsgEconomicNumber, 3, 12},
		{"CompanyNationalID", CompanyNationalID, FieldCompanyNationalID, MsgCompanyNationalID, 3, 11},
	}
	persian := []rune("۰۱۲۳۴۵۶۷۸۹")
	arabic := []rune("٠١٢٣٤٥٦٧٨٩")
	for _, c := range checks {
		for n := 0; n <= c.hi+1; n++ {
			latin := strings.Repeat("1", n)
			var fa, ar strings.Builder
			for i := 0; i < n; i++ {
				fa.WriteRune(persian[(i+3)%10])
				ar.WriteRune(arabic[(i+7)%10])
			}
			msg := ""
			if n < c.lo || n > c.hi {
				msg = c.msg
			}
			for _, in := range []string{latin, fa.String(), ar.String(), " " + latin + " "} {
				wantErr(t, fmt.Sprintf("%s(%q)", c.name, in), c.fn(in), c.field, msg)
			}
		}
		// Non-digits are rejected whatever the length.
		for _, in := range []string{"12a45678901", "۱۲-۳۴۵۶۷۸۹", "1 2 3 4 5", "+12345", "12.3456789", "۱۲۳abc", "x"} {
			wantErr(t, fmt.Sprintf("%s(%q)", c.name, in), c.fn(in), c.field, c.msg)
		}
	}
}

func TestEmail(t *testing.T) {
	valid := []string{
		"user@example.com",
		"first.last+tag@sub.example.co.ir",
		"a_b-c@mail-server.ir",
		"  user@example.com  ",
		"USER@EXAMPLE.COM",
		"x@y.io",
	}
	for _, in := range valid {
		wantErr(t, fmt.Sprintf("Email(%q)", in), Email(in), "", "")
	}
	invalid := []string{
		"",
		"   ",
		"user",
		"user@",
		"@example.com",
		"user@localhost",
		"user@example",
		"user@.example.com",
		"user@example.com.",
		"user@example..com",
		"user@@example.com",
		"user@exa mple.com",
		"Ali <ali@example.com>",
		"<ali@example.com>",
		"ali@example.com (Ali)",
		"ali@[192.168.0.1]",
		"a@b.c, d@e.f",
		strings.Repeat("a", 250) + "@x.ir",
	}
	for _, in := range invalid {
		wantErr(t, fmt.Sprintf("Email(%q)", in), Email(in), FieldEmail, MsgEmail)
	}
}

func TestLatinOnly(t *testing.T) {
	valid := []string{"", "Hello World 123", "api-key_2!@#", "café déjà", "ΑΒΓ"}
	for _, in := range valid {
		wantErr(t, fmt.Sprintf("LatinOnly(%q)", in), LatinOnly("title", in), "", "")
	}
	invalid := []string{
		"سلام",
		"hello سلام",
		"abc۱۲۳",       // Persian digits
		"abc١٢٣",       // Arabic-Indic digits
		"گچپژک",        // Persian-only letters
		"ي ك",          // Arabic yeh and kaf
		"a،b",          // Arabic comma
		"ab\u200ccd",   // zero-width non-joiner
		"ﻻ",            // presentation form
		"\u08a0",       // Arabic Extended-A
		"\U0001EE00",   // Arabic mathematical symbol
		"ok\u0750",     // Arabic Supplement
		"name\ufdf2ok", // Allah ligature
	}
	for _, in := range invalid {
		wantErr(t, fmt.Sprintf("LatinOnly(%q)", in), LatinOnly("title", in), "title", MsgLatinOnly)
	}
}

func TestFeatureName(t *testing.T) {
	for _, in := range []string{"a", "Z", "9", "-", "customer-id", "Feature-2", " city-code "} {
		wantErr(t, fmt.Sprintf("FeatureName(%q)", in), FeatureName(in), "", "")
	}
	for _, in := range []string{"", "  ", "customer id", "customer_id", "café", "ویژگی", "abc۱", "a.b", "a/b", "a\tb"} {
		wantErr(t, fmt.Sprintf("FeatureName(%q)", in), FeatureName(in), FieldFeatureName, MsgFeatureName)
	}
}

func TestPassword(t *testing.T) {
	tests := []struct{ pw, user, msg string }{
		{"Abcdef12", "ali", ""},                 // exactly 8
		{"Abcdef1", "ali", MsgPasswordTooShort}, // 7
		{"", "ali", MsgPasswordTooShort},
		{"Ab1", "", MsgPasswordTooShort},
		{"Ab1۲۳۴۵", "", MsgPasswordTooShort}, // 7 characters, more bytes
		{"Abcdefgh", "ali", MsgPasswordWeak}, // no digit
		{"abcdef12", "ali", MsgPasswordWeak}, // no uppercase
		{"ABCDEF12", "ali", MsgPasswordWeak}, // no lowercase
		{"12345678", "ali", MsgPasswordWeak}, // digits only
		{"Abcdef۱۲", "ali", MsgPasswordWeak}, // Persian digits do not count
		{"رمزعبورA1", "", MsgPasswordWeak},   // no Latin lowercase
		{"S3cure!Pass", "ali", ""},           // special characters are fine
		{"xxAliReza9", "alireza", MsgPasswordHasUsername},
		{"xxALIREZA9a", "AliReza", MsgPasswordHasUsername},
		{"Pass1alireza", " alireza ", MsgPasswordHasUsername},
		{"Xy9ali1234", "ali", MsgPasswordHasUsername},
		{"Xy9al1234", "ali", ""},
		{"Abcdef12", "", ""}, // no username to compare
		{"Abcdef12", "   ", ""},
	}
	for _, tt := range tests {
		wantErr(t, fmt.Sprintf("Password(%q, %q)", tt.pw, tt.user), Password(tt.pw, tt.user), FieldPassword, tt.msg)
	}
}

func TestPasswordConfirmation(t *testing.T) {
	wantErr(t, "PasswordConfirmation(same)", PasswordConfirmation("Abcdef12", "Abcdef12"), "", "")
	wantErr(t, "PasswordConfirmation(case)", PasswordConfirmation("Abcdef12", "abcdef12"), FieldPasswordConfirmation, MsgPasswordMismatch)
	wantErr(t, "PasswordConfirmation(empty)", PasswordConfirmation("Abcdef12", ""), FieldPasswordConfirmation, MsgPasswordMismatch)
}

func TestHasSpecialChar(t *testing.T) {
	for in, want := range map[string]bool{
		"Abcdef12": false, "Abc@ef12": true, "Abc!": true, "a$b": true, "a%b": true, "a&b": true,
		"a.b": true, "a b": false, "رمز": false, "": false,
	} {
		if got := HasSpecialChar(in); got != want {
			t.Errorf("HasSpecialChar(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestRequiredAndRules(t *testing.T) {
	r := Required("text")
	if r.Field != "text" || r.Message != MsgRequired || r.Error() != "این فیلد الزامی است" {
		t.Errorf("Required = %+v", r)
	}
	wantErr(t, "NotBlank(blank)", NotBlank("text", " \t\n"), "text", MsgRequired)
	wantErr(t, "NotBlank(empty)", NotBlank("text", ""), "text", MsgRequired)
	wantErr(t, "NotBlank(ok)", NotBlank("text", " x "), "", "")
	wantErr(t, "RulesAccepted(false)", RulesAccepted(false), FieldRules, MsgRulesNotAccepted)
	wantErr(t, "RulesAccepted(true)", RulesAccepted(true), "", "")
	if MsgRulesNotAccepted != "پذیرش قوانین الزامی است" {
		t.Errorf("MsgRulesNotAccepted = %q", MsgRulesNotAccepted)
	}
}

func TestOptionalAndInField(t *testing.T) {
	wantErr(t, "Optional(blank)", Optional("  ", PostalCode), "", "")
	wantErr(t, "Optional(bad)", Optional("123", PostalCode), FieldPostalCode, MsgPostalCode)
	wantErr(t, "Optional(ok)", Optional("1234567890", PostalCode), "", "")

	wantErr(t, "InField", InField("receiver_mobile", Mobile("123")), "receiver_mobile", MsgMobile)
	if InField("x", nil) != nil {
		t.Error("InField(nil) != nil")
	}
	plain := errors.New("plain")
	if InField("x", plain) != plain {
		t.Error("InField(plain) changed a non-validation error")
	}
	// The original error is not modified.
	orig := Mobile("123")
	_ = InField("other", orig)
	wantErr(t, "orig", orig, FieldMobile, MsgMobile)
}

func TestCollect(t *testing.T) {
	if got := Collect(nil, Mobile("09121234567"), nil); got != nil {
		t.Errorf("Collect(no errors) = %v, want nil", got)
	}
	got := Collect(
		Mobile("12"),
		Password("short", ""),
		PasswordConfirmation("a", "b"),
		nil,
		Mobile("34"),
		InField("mobile", NotBlank("mobile", "")),
		fmt.Errorf("wrapped: %w", &Error{Field: "email", Message: MsgEmail}),
		errors.New("خطای دیگر"),
	)
	want := map[string][]string{
		FieldMobile:               {MsgMobile, MsgRequired},
		FieldPassword:             {MsgPasswordTooShort},
		FieldPasswordConfirmation: {MsgPasswordMismatch},
		FieldEmail:                {MsgEmail},
		"":                        {"خطای دیگر"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Collect = %v\nwant %v", got, want)
	}
}

func TestMessagesArePersian(t *testing.T) {
	msgs := []string{
		MsgRequired, MsgRulesNotAccepted, MsgMobile, MsgPasswordTooShort, MsgPasswordWeak,
		MsgPasswordHasUsername, MsgPasswordMismatch, MsgPasswordSpecialHint, MsgNationalCodeMust10,
		MsgNationalCodeInvalid, MsgPostalCode, MsgLandline, MsgCityCode, MsgRegistrationNumber,
		MsgEconomicNumber, MsgCompanyNationalID, MsgEmail, MsgLatinOnly, MsgFeatureName,
	}
	seen := map[string]bool{}
	for _, m := range msgs {
		if seen[m] {
			t.Errorf("message %q used twice", m)
		}
		seen[m] = true
		if strings.IndexFunc(m, IsPersianOrArabic) < 0 {
			t.Errorf("message %q is not Persian", m)
		}
		if strings.ContainsAny(m, "0123456789") {
			t.Errorf("message %q shows Latin digits; the interface shows Persian digits", m)
		}
	}
}

// Account names are bounded and carry no link or host-like token, however spelt.
func TestAccountName(t *testing.T) {
	for name, ok := range map[string]bool{
		"فروشگاه آفتاب": true, "Ali Rezaei": true, "شرکت ۱۲۳": true, "A. B. Co": true,
		strings.Repeat("ن", 60): true, strings.Repeat("ن", 61): false,
		"https://evil.example": false, "بانک evil.com": false, "bit.ly/x": false, "x.tk": false,
		"www.example": false, "me@example.org": false, "evil．com": false, "evil\u200b.com": false, "شاپ.ایران": false,
	} {
		if err := AccountName("name", name); (err == nil) != ok {
			t.Errorf("AccountName(%q): %v", name, err)
		}
	}
}
