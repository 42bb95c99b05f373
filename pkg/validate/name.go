package validate

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// MaxAccountName is the longest account (business or owner) name, in characters.
const MaxAccountName = 60

// Persian messages of the account name.
const (
	MsgAccountNameLong = "نام حداکثر ۶۰ نویسه است"
	MsgAccountNameLink = "نام نباید نشانی وب، دامنه یا ایمیل داشته باشد"
)

// nameDots folds the characters that read as a dot in a host name (fullwidth,
// ideographic and halfwidth ideographic full stops) and drops the zero-width ones
// that could split a token, before a name is checked for links.
var nameDots = strings.NewReplacer("\uFF0E", ".", "\u3002", ".", "\uFF61", ".", "\u200B", "", "\u200C", "", "\u200D", "",
	"\u2060", "", "\uFEFF", "")

// hostLike finds a link or a host-like token: a scheme, "www.", an e-mail, or
// letters and digits joined by a dot to two or more letters (example.com, bit.ly, x.tk).
var hostLike = regexp.MustCompile(`(?i)([a-z][a-z0-9+.-]*://|www\.|@|[\p{L}\p{N}-]\.[\p{L}]{2,})`)

// AccountName checks the name an account carries (registration): at most
// MaxAccountName characters and no link or host-like token, since the name is
// shown to colleagues and staff. Blank is left to NotBlank.
func AccountName(field, name string) error {
	if utf8.RuneCountInString(name) > MaxAccountName {
		return &Error{Field: field, Message: MsgAccountNameLong}
	}
	if hostLike.MatchString(nameDots.Replace(name)) {
		return &Error{Field: field, Message: MsgAccountNameLink}
	}
	return nil
}
