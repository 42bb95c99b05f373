package offline

import (
	"math/big"
	"strings"

	"github.com/chapar/chapar/pkg/validate"
)

// Persian messages of the offline payment forms (spec §5 Wallet, §8).
const (
	MsgCard       = "شماره کارت اشتباه است"
	MsgAccount    = "شماره حساب اشتباه است"
	MsgTracking   = "شماره پیگیری را به صورت عددی (۴ تا ۳۰ رقم) وارد کنید"
	MsgDuplicate  = "این شماره پیگیری قبلا ثبت شده است"
	MsgTime       = "تاریخ و ساعت واریز معتبر نیست"
	MsgTimeFuture = "تاریخ واریز نمی‌تواند در آینده باشد"
	MsgTimeOld    = "واریزهای بیش از ۳۰ روز پیش پذیرفته نمی‌شوند"
	MsgAmount     = "حداقل مبلغ پرداخت ۱٬۰۰۰٬۰۰۰ ریال است"
	MsgAmountMax  = "مبلغ پرداخت بیش از حد مجاز است"
	MsgNoReceipt  = "تصویر رسید را بارگذاری کنید"
	MsgReceiptBad = "رسید باید تصویر JPEG یا PNG یا فایل PDF باشد"
	MsgReceiptBig = "حجم رسید حداکثر ۲ مگابایت است"
	MsgNotPending = "این درخواست قبلا بررسی شده است"
)

// digitsOnly converts Persian and Arabic digits to Latin and drops spaces and
// dashes, as card and account numbers are typed and pasted.
func digitsOnly(s string) string {
	s = validate.ToLatinDigits(strings.TrimSpace(s))
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' || r == '\u200c' {
			return -1
		}
		return r
	}, s)
}

// NormalizeCard cleans a card number and reports whether it is a valid card:
// 16 digits whose Luhn checksum holds.
func NormalizeCard(s string) (string, bool) {
	s = digitsOnly(s)
	if len(s) != 16 {
		return s, false
	}
	sum := 0
	for i := 0; i < 16; i++ {
		c := s[15-i]
		if c < '0' || c > '9' {
			return s, false
		}
		d := int(c - '0')
		if i%2 == 1 {
			if d *= 2; d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	return s, sum%10 == 0
}

// NormalizeIBAN cleans a Sheba (IBAN) number and reports whether it is valid: IR and
// 24 digits whose ISO 7064 mod 97-10 check holds. The IR may be left out.
func NormalizeIBAN(s string) (string, bool) {
	s = strings.ToUpper(digitsOnly(s))
	if !strings.HasPrefix(s, "IR") {
		s = "IR" + s
	}
	if len(s) != 26 {
		return s, false
	}
	for _, c := range s[2:] {
		if c < '0' || c > '9' {
			return s, false
		}
	}
	// The country letters move behind the number, each letter as two digits (A=10 … I=18, R=27).
	n, ok := new(big.Int).SetString(s[4:]+"1827"+s[2:4], 10)
	return s, ok && new(big.Int).Mod(n, big.NewInt(97)).Int64() == 1
}

// normalizeTracking cleans a tracking number: 4 to 30 digits.
func normalizeTracking(s string) (string, bool) {
	s = digitsOnly(s)
	if len(s) < 4 || len(s) > 30 {
		return s, false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return s, false
		}
	}
	return s, true
}
