package bank

import "strings"

// Mask hides a bank number as reports show it: 989121234567 → 0912*****67.
// Customers never see a bank number whole; SQL does the same with
// bank_masked(send_type, mobile) and shown_mobile (migration 0112). Only two
// final digits are kept: with four, a known number's mask in a paid send's
// recipient list told the account, almost surely, that the bank held that number.
func Mask(mobile string) string {
	if len(mobile) != 12 || !strings.HasPrefix(mobile, "98") {
		return "***"
	}
	return "0" + mobile[2:5] + "*****" + mobile[10:]
}
