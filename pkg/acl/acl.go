// Package acl owns permissions and the identity of the caller of a request.
//
// Every route declares one Permission. Owners hold every permission; colleagues hold
// the permissions of their role. API keys act as the owner of their account, limited
// to the API permissions.
package acl

import "slices"

// Permission names one thing a caller may do.
type Permission string

// Route-level permissions. Public routes need no token; Authenticated needs any
// valid session; the rest are checked against the caller's role.
const (
	Public        Permission = "public"
	Authenticated Permission = "authenticated"
	// Staff routes (the back office) take only staff sessions; every other route
	// refuses them.
	Staff Permission = "staff"

	SendCreate    Permission = "send.create"
	SendCancel    Permission = "send.cancel"
	ReportView    Permission = "report.view"
	NumberView    Permission = "number.view"
	NumberManage  Permission = "number.manage"
	WalletView    Permission = "wallet.view"
	ProfileManage Permission = "profile.manage"
	PartnerManage Permission = "partner.manage"

	PhonebookView   Permission = "phonebook.view"
	PhonebookManage Permission = "phonebook.manage"
	FileManage      Permission = "file.manage"
)

// Titles are the Persian names of the permissions, for the role editor.
var Titles = map[Permission]string{
	SendCreate:    "ارسال پیامک",
	SendCancel:    "توقف و لغو ارسال",
	ReportView:    "مشاهده گزارش‌ها",
	NumberView:    "مشاهده خطوط ارسال",
	NumberManage:  "مدیریت خطوط ارسال",
	WalletView:    "مشاهده کیف پول",
	ProfileManage: "مدیریت پروفایل",
	PartnerManage: "مدیریت همکاران و نقش‌ها",

	PhonebookView:   "مشاهده دفترچه تلفن",
	PhonebookManage: "مدیریت دفترچه تلفن و لیست سیاه",
	FileManage:      "بارگذاری و مدیریت فایل‌ها",
}

// All lists the permissions a role may hold (for the role editor).
var All = []Permission{SendCreate, SendCancel, ReportView, NumberView, NumberManage, WalletView, ProfileManage, PartnerManage,
	PhonebookView, PhonebookManage, FileManage}

// Identity is the authenticated caller.
type Identity struct {
	UserID      int64
	AccountID   int64
	SessionID   int64
	APIKeyID    int64
	Username    string
	Name        string
	IsOwner     bool
	Permissions []Permission
	// Staff marks a back-office staff session.
	Staff bool
}

// Can reports whether the identity holds p.
func (id Identity) Can(p Permission) bool {
	switch p {
	case Public, Authenticated:
		return true
	}
	if id.IsOwner {
		return true
	}
	return slices.Contains(id.Permissions, p)
}
