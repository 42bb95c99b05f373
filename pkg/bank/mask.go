package bank

import "strings"

// Mask hides the middle of a bank number as reports show it: 989121234567 →
// 0912***4567. Customers never see a bank number whole; SQL does the same with
// bank_masked(send_type, mobile) (migration 0060).
func Mask(mobile string) string {
	if len(mobile) != 12 || !strings.HasPrefix(mobile, "98") {
		return "***"
	}
	return "0" + mobile[2:5] + "***" + mobile[8:]
}
