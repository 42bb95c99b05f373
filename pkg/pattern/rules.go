package pattern

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/moderation"
	"github.com/chapar/chapar/pkg/persian"
	"github.com/chapar/chapar/pkg/shortlink"
	"github.com/chapar/chapar/pkg/validate"
)

// Variable types (spec §3: string or integer).
const (
	TypeString  = "string"
	TypeInteger = "integer"
)

// DefaultLength is a variable's length when none is given (spec §9).
const DefaultLength = 20

// MaxLength is the longest length a variable may declare.
const MaxLength = 100

// LongValue is the length past which a string value holds a send for review
// (spec §5: "a long value … delays sending"), within the variable's own length.
const LongValue = 30

// Persian messages of the pattern rules (spec §5 Pattern).
const (
	MsgTitleRequired    = "عنوان الگو را وارد کنید"
	MsgTitleLong        = "عنوان الگو حداکثر ۱۰۰ کاراکتر است"
	MsgDescriptionLong  = "توضیحات الگو حداکثر ۵۰۰ کاراکتر است"
	MsgBrand            = "نام برند («%s») باید در متن الگو آمده باشد"
	MsgLinkHTTPS        = "پیوندهای متن الگو باید با https:// شروع شوند"
	MsgLinkVariable     = "پیوند نباید متغیر باشد یا متغیری در خود داشته باشد"
	MsgVarName          = "نام متغیر «%s» معتبر نیست؛ فقط حروف لاتین، رقم و _ بدون فاصله و با یک حرف در آغاز"
	MsgVarDuplicate     = "متغیر «%s» دو بار تعریف شده است"
	MsgVarType          = "نوع متغیر «%s» باید رشته (string) یا عدد (integer) باشد"
	MsgVarLength        = "طول متغیر «%s» باید بین ۱ و ۱۰۰ باشد"
	MsgVarUndeclared    = "متغیر «%s» در متن آمده اما تعریف نشده است"
	MsgVarUnused        = "متغیر «%s» تعریف شده اما در متن نیامده است"
	MsgVarNone          = "الگو دست‌کم یک متغیر مانند %code% لازم دارد"
	MsgKind             = "نوع الگو باید otp، transactional یا normal باشد"
	MsgValueMissing     = "مقدار متغیر «%s» را وارد کنید"
	MsgValueInteger     = "مقدار متغیر «%s» باید عدد باشد"
	MsgValueLength      = "مقدار متغیر «%s» حداکثر %s کاراکتر است"
	MsgValueUnknown     = "متغیر «%s» در این الگو تعریف نشده است"
	MsgValuePlaceholder = "مقدار متغیر «%s» نمی‌تواند جای‌نگهدار لینک ردیابی ({link:…}) داشته باشد؛ لینک‌ها فقط از متن تأییدشده الگو می‌آیند"
	ReasonValueLink     = "پیوند در مقدار متغیر"
	ReasonValueLong     = "مقدار طولانی در متغیر"
	ReasonValueWord     = "واژه حساس در مقدار متغیر: "
)

// Variable is one declared variable of a pattern.
type Variable struct {
	Name   string `json:"name"`
	Type   string `json:"type"`
	Length int    `json:"length"`
}

// Draft is a pattern's editable content: a version.
type Draft struct {
	Title       string     `json:"title"`
	Description string     `json:"description"`
	Text        string     `json:"text"`
	Variables   []Variable `json:"variables"`
}

var (
	// placeholderRE finds %name% markers (spec §3: the default marker is percent signs).
	placeholderRE = regexp.MustCompile(`%([^%\s]{1,64})%`)
	varNameRE     = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*$`)
	// linkRE finds a link: a scheme, or www., or a bare domain with a known ending.
	linkRE = regexp.MustCompile(`(?i)(?:[a-z][a-z0-9+.-]*://|www\.)[^\s]+|\b[a-z0-9][a-z0-9-]*(?:\.[a-z0-9-]+)*\.(?:ir|com|net|org|info|xyz|io|me|co|app|site|online|link|top|club|shop|biz)\b[^\s]*`)
)

// Placeholders returns the variable names marked in text, in order, once each.
func Placeholders(text string) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range placeholderRE.FindAllStringSubmatch(text, -1) {
		if !seen[m[1]] {
			seen[m[1]] = true
			out = append(out, m[1])
		}
	}
	return out
}

// normalize trims the draft and fills variable defaults.
func (d *Draft) normalize() {
	d.Title, d.Description = strings.TrimSpace(d.Title), strings.TrimSpace(d.Description)
	d.Text = strings.TrimSpace(d.Text)
	if d.Variables == nil {
		d.Variables = []Variable{}
	}
	for i := range d.Variables {
		v := &d.Variables[i]
		v.Name, v.Type = strings.TrimSpace(v.Name), strings.TrimSpace(v.Type)
		if v.Type == "" {
			v.Type = TypeString
		}
		if v.Length == 0 {
			v.Length = DefaultLength
		}
	}
}

// Check applies the pattern rules of spec §5 to a draft; brand is the name that
// must appear in the text ("" skips the rule: systemic patterns). The result maps
// fields (title, description, text, variables) to Persian messages.
func Check(d Draft, brand string) apperr.Fields {
	f := apperr.Fields{}
	switch n := utf8.RuneCountInString(d.Title); {
	case n == 0:
		f.Add("title", MsgTitleRequired)
	case n > 100:
		f.Add("title", MsgTitleLong)
	}
	if utf8.RuneCountInString(d.Description) > 500 {
		f.Add("description", MsgDescriptionLong)
	}
	checkText(f, d.Text, brand)
	checkVariables(f, d)
	return f
}

func checkText(f apperr.Fields, text, brand string) {
	if err := validate.NotBlank("text", text); err != nil {
		f.Add("text", "متن الگو را وارد کنید")
		return
	}
	if utf8.RuneCountInString(text) > 2700 {
		f.Add("text", "متن الگو حداکثر ۲۷۰۰ کاراکتر است")
	}
	if brand != "" && !containsBrand(text, brand) {
		f.Add("text", strings.Replace(MsgBrand, "%s", brand, 1))
	}
	for _, l := range linkRE.FindAllString(text, -1) {
		if strings.Contains(l, "%") {
			f.Add("text", MsgLinkVariable)
		} else if !strings.HasPrefix(strings.ToLower(l), "https://") {
			f.Add("text", MsgLinkHTTPS)
		}
	}
	if len(f["text"]) > 1 {
		f["text"] = unique(f["text"])
	}
}

// containsBrand compares normalised forms (letter forms, case, spacing).
func containsBrand(text, brand string) bool {
	b := moderation.Normalize(brand)
	return b != "" && strings.Contains(" "+moderation.Normalize(text)+" ", " "+b+" ")
}

func checkVariables(f apperr.Fields, d Draft) {
	declared := map[string]bool{}
	for _, v := range d.Variables {
		switch {
		case !varNameRE.MatchString(v.Name):
			f.Add("variables", fmtName(MsgVarName, v.Name))
			continue
		case declared[v.Name]:
			f.Add("variables", fmtName(MsgVarDuplicate, v.Name))
		}
		declared[v.Name] = true
		if v.Type != TypeString && v.Type != TypeInteger {
			f.Add("variables", fmtName(MsgVarType, v.Name))
		}
		if v.Length < 1 || v.Length > MaxLength {
			f.Add("variables", fmtName(MsgVarLength, v.Name))
		}
	}
	used := Placeholders(d.Text)
	if len(used) == 0 && d.Text != "" {
		f.Add("variables", MsgVarNone)
	}
	inText := map[string]bool{}
	for _, name := range used {
		inText[name] = true
		if !declared[name] {
			f.Add("text", fmtName(MsgVarUndeclared, name))
		}
	}
	for _, v := range d.Variables {
		if varNameRE.MatchString(v.Name) && !inText[v.Name] {
			f.Add("variables", fmtName(MsgVarUnused, v.Name))
		}
	}
}

func fmtName(msg, name string) string { return strings.Replace(msg, "%s", name, 1) }

func unique(in []string) []string {
	seen := map[string]bool{}
	out := in[:0]
	for _, s := range in {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// Values are a recipient's variable values by name.
type Values map[string]string

// CheckValues validates values against the variables (types and lengths) and
// returns them normalised (integers in Latin digits) with the reasons the send must
// wait for review (links, sensitive words, long values), judged by rules.
func CheckValues(vars []Variable, in Values, rules moderation.Rules) (Values, []string, []string) {
	var errs, held []string
	out := make(Values, len(vars))
	declared := map[string]bool{}
	for _, v := range vars {
		declared[v.Name] = true
		val := strings.TrimSpace(in[v.Name])
		if v.Type == TypeInteger {
			val = validate.ToLatinDigits(val)
		}
		n := utf8.RuneCountInString(val)
		switch {
		case val == "":
			errs = append(errs, fmtName(MsgValueMissing, v.Name))
		case v.Type == TypeInteger && !allDigits(val):
			errs = append(errs, fmtName(MsgValueInteger, v.Name))
		case n > v.Length:
			errs = append(errs, strings.Replace(fmtName(MsgValueLength, v.Name), "%s",
				persian.Digits(strconv.Itoa(v.Length)), 1))
		case shortlink.Has(val):
			errs = append(errs, fmtName(MsgValuePlaceholder, v.Name))
		}
		out[v.Name] = val
		held = append(held, valueHolds(val, n, rules)...)
	}
	for name := range in {
		if !declared[name] {
			errs = append(errs, fmtName(MsgValueUnknown, name))
		}
	}
	return out, errs, held
}

// valueHolds is why one value holds the send (spec §5).
func valueHolds(val string, n int, rules moderation.Rules) []string {
	var held []string
	if moderation.HasLink(val) {
		held = append(held, ReasonValueLink)
	}
	if n > LongValue {
		held = append(held, ReasonValueLong)
	}
	for _, r := range (moderation.Rules{Words: rules.Words}).Check(moderation.Send{Text: val}) {
		held = append(held, ReasonValueWord+strings.TrimPrefix(r, moderation.ReasonWord))
	}
	return held
}

func allDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// Render fills text's %name% markers with values.
func Render(text string, values Values) string {
	return placeholderRE.ReplaceAllStringFunc(text, func(m string) string {
		if v, ok := values[m[1:len(m)-1]]; ok {
			return v
		}
		return m
	})
}
