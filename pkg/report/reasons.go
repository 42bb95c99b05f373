package report

import (
	"strings"

	"github.com/chapar/chapar/pkg/persian"
)

// Reason words for recipients without a carrier error.
const (
	reasonUndelivered = "نرسیده به گوشی (گزارش اپراتور)"
	reasonRejected    = "ارسال نشد"
	reasonBlacklisted = "در لیست سیاه"
)

// carrierReasons words the state a carrier's receipt gives a message that did
// not reach the handset (recipients.error, written by the receipt: «EXPIRED»,
// «UNDELIV err:011» …) and the engine's own codes.
var carrierReasons = map[string]string{
	"EXPIRED":  "منقضی شد (گوشی در دسترس نبود)",
	"UNDELIV":  "تحویل‌ناپذیر (شماره نامعتبر، خاموش یا خارج از سرویس)",
	"REJECTD":  "اپراتور پیام را رد کرد",
	"DELETED":  "اپراتور پیام را حذف کرد",
	"UNKNOWN":  "وضعیت نامعلوم از سوی اپراتور",
	"BLOCKED":  "شماره دریافت پیامک تبلیغاتی را مسدود کرده است",
	"BLACKLST": "شماره دریافت پیامک تبلیغاتی را مسدود کرده است",
	"FAILED":   "تحویل‌ناپذیر (شماره نامعتبر، خاموش یا خارج از سرویس)",

	"no-receipt":          "گزارش تحویل از اپراتور نرسید",
	"stopped":             "ارسال متوقف شد (هزینه بازگشت داده شد)",
	"text:too_many_parts": "متن بیش از حد طولانی بود",
	"text:empty":          "متن پیام خالی بود",
	"submit:invalid":      "اپراتور پیام را نپذیرفت",
	"blocked":             "شماره دریافت پیامک تبلیغاتی را مسدود کرده است",
	"blacklist":           "در لیست سیاه",
}

// smscReasons words the SMPP command statuses an SMSC refuses a submit with
// (recipients.error «smsc:0xNN», as the gateway writes it); others are «اپراتور پیام را نپذیرفت (کد …)».
var smscReasons = map[string]string{
	"0x0B": "شماره گیرنده نامعتبر است",
	"0x0A": "شماره فرستنده نزد اپراتور نامعتبر است",
	"0x14": "صف اپراتور پر بود",
	"0x58": "اپراتور به دلیل ازدحام پیام را نپذیرفت",
	"0x45": "اپراتور ارسال را نپذیرفت",
	"0x62": "شماره گیرنده مسدود است",
}

// ReasonText is the Persian reason a recipient of the public status did not
// receive the message, from its stored error: a carrier's receipt state, an
// SMSC's refusal, the engine's own code or a Persian sentence kept as it is.
// It is empty for a recipient that is not undelivered, blacklisted or refused
// and has no error.
func ReasonText(status int, code string) string {
	code = strings.TrimSpace(code)
	if code == "" {
		switch status {
		case StatusUndelivered:
			return reasonUndelivered
		case StatusBlacklisted:
			return reasonBlacklisted
		}
		return ""
	}
	if w, ok := carrierReasons[code]; ok {
		return w
	}
	if hex, ok := strings.CutPrefix(code, "smsc:"); ok {
		if w, ok := smscReasons[hex]; ok {
			return w
		}
		return "اپراتور پیام را نپذیرفت (کد " + persian.Digits(hex) + ")"
	}
	state, errCode, hasErr := strings.Cut(code, " err:")
	if w, ok := carrierReasons[state]; ok {
		if hasErr {
			return w + " — کد خطای اپراتور " + persian.Digits(errCode)
		}
		return w
	}
	return code
}
