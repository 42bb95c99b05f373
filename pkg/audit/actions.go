package audit

// Action codes of the log: stable strings, "domain.verb".
const (
	AuthLogin          = "auth.login"
	AuthLoginFailed    = "auth.login_failed"
	AuthLoginLocked    = "auth.login_locked"
	AuthLoginCode      = "auth.login_code"
	AuthLoginCodeShut  = "auth.login_code_closed"
	AuthLogout         = "auth.logout"
	AuthPasswordReset  = "auth.password_reset"
	AuthResetLocked    = "auth.reset_locked"
	AuthExternalIssued = "auth.external_issued"
	AuthExternalLogin  = "auth.external_login"
	AuthTwoStepEnable  = "auth.two_step_enable"
	AuthTwoStepDisable = "auth.two_step_disable"
	AccountRegister    = "account.register"
	AccountMobile      = "account.mobile_verified"
	SendCreate         = "send.create"
	SendStop           = "send.stop"
	SendPause          = "send.pause"
	SendResume         = "send.resume"
	SendReschedule     = "send.reschedule"
	CampaignCreate     = "campaign.create"
	CampaignUpdate     = "campaign.update"
	CampaignToggle     = "campaign.toggle"
	CampaignDelete     = "campaign.delete"
	CampaignStopped    = "campaign.stopped"
	PhonebookCreate    = "phonebook.create"
	PhonebookUpdate    = "phonebook.update"
	PhonebookDelete    = "phonebook.delete"
	ContactAdd         = "contact.add"
	ContactUpdate      = "contact.update"
	ContactDelete      = "contact.delete"
	ContactImport      = "contact.import"
	TagCreate          = "contact_tag.create"
	TagDelete          = "contact_tag.delete"
	FeatureCreate      = "contact_feature.create"
	FeatureUpdate      = "contact_feature.update"
	FeatureDelete      = "contact_feature.delete"
	BlacklistAdd       = "blacklist.add"
	BlacklistDelete    = "blacklist.delete"
	FileUpload         = "file.upload"
	FileDelete         = "file.delete"
	LineDefault        = "line.default"
	PatternCreate      = "pattern.create"
	PatternUpdate      = "pattern.update"

	// Codes reserved for the roles and colleagues work (labels below).
	RoleCreate          = "role.create"
	RoleUpdate          = "role.update"
	RoleDelete          = "role.delete"
	ColleagueCreate     = "colleague.create"
	ColleagueUpdate     = "colleague.update"
	ColleagueDeactivate = "colleague.deactivate"
	ColleagueActivate   = "colleague.activate"

	// Predefined messages, their groups and the send wizards' drafts (pkg/predefined).
	PredefinedGroupCreate = "predefined.group_create"
	PredefinedGroupUpdate = "predefined.group_update"
	PredefinedGroupDelete = "predefined.group_delete"
	PredefinedCreate      = "predefined.create"
	PredefinedUpdate      = "predefined.update"
	PredefinedDelete      = "predefined.delete"
	DraftCreate           = "draft.create"
	DraftUpdate           = "draft.update"
	DraftDelete           = "draft.delete"
	// The inbox and the secretaries (pkg/inbox, pkg/secretary).
	InboxDelete  = "inbox.delete"
	ReaderCreate = "reader.create"
	ReaderUpdate = "reader.update"
	ReaderToggle = "reader.toggle"
	ReaderDelete = "reader.delete"
	ReaderCodes  = "reader.codes"
	ReaderDraw   = "reader.draw"
)

// Labels are the Persian names of the action codes, in the order the panel's filter
// lists them. A code without a label is shown as is.
var Labels = []Label{
	{AuthLogin, "ورود به حساب"},
	{AuthLoginFailed, "ورود ناموفق"},
	{AuthLoginLocked, "قفل ورود پس از تلاش‌های ناموفق"},
	{AuthLoginCode, "ورود با رمز یکبار مصرف"},
	{AuthLoginCodeShut, "درخواست ورود با رمز یکبار مصرف (بسته به‌دلیل ورود دومرحله‌ای)"},
	{AuthLogout, "خروج از حساب"},
	{AuthPasswordReset, "بازیابی رمز عبور"},
	{AuthResetLocked, "قفل بازیابی رمز عبور"},
	{AuthExternalIssued, "صدور کد ورود پشتیبان"},
	{AuthExternalLogin, "ورود پشتیبان به حساب"},
	{AuthTwoStepEnable, "فعال‌سازی ورود دومرحله‌ای"},
	{AuthTwoStepDisable, "غیرفعال‌سازی ورود دومرحله‌ای"},
	{AccountRegister, "ثبت‌نام"},
	{AccountMobile, "تأیید شماره موبایل"},
	{SendCreate, "ثبت ارسال"},
	{SendStop, "توقف و لغو ارسال"},
	{SendPause, "توقف موقت ارسال"},
	{SendResume, "ادامه ارسال"},
	{SendReschedule, "تغییر زمان ارسال"},
	{CampaignCreate, "ایجاد کمپین"},
	{CampaignUpdate, "ویرایش کمپین"},
	{CampaignToggle, "فعال/غیرفعال کردن کمپین"},
	{CampaignDelete, "حذف کمپین"},
	{CampaignStopped, "توقف کمپین (سازنده یا کلید آن دیگر فعال نیست)"},
	{PhonebookCreate, "ایجاد دفترچه تلفن"},
	{PhonebookUpdate, "ویرایش دفترچه تلفن"},
	{PhonebookDelete, "حذف دفترچه تلفن"},
	{ContactAdd, "افزودن مخاطب"},
	{ContactUpdate, "ویرایش مخاطب"},
	{ContactDelete, "حذف مخاطب"},
	{ContactImport, "ورود مخاطبین از فایل"},
	{TagCreate, "ایجاد برچسب"},
	{TagDelete, "حذف برچسب"},
	{FeatureCreate, "ایجاد ویژگی مخاطب"},
	{FeatureUpdate, "ویرایش ویژگی مخاطب"},
	{FeatureDelete, "حذف ویژگی مخاطب"},
	{BlacklistAdd, "افزودن به لیست سیاه"},
	{BlacklistDelete, "حذف از لیست سیاه"},
	{FileUpload, "بارگذاری فایل"},
	{FileDelete, "حذف فایل"},
	{LineDefault, "تغییر خط پیش‌فرض"},
	{PatternCreate, "ایجاد الگو"},
	{PatternUpdate, "ویرایش الگو (نسخه تازه)"},
	{RoleCreate, "ایجاد نقش دسترسی"},
	{RoleUpdate, "ویرایش نقش دسترسی"},
	{RoleDelete, "حذف نقش دسترسی"},
	{ColleagueCreate, "افزودن همکار"},
	{ColleagueUpdate, "ویرایش همکار"},
	{ColleagueDeactivate, "غیرفعال کردن همکار"},
	{ColleagueActivate, "فعال کردن همکار"},
	{PredefinedGroupCreate, "ایجاد گروه پیام آماده"},
	{PredefinedGroupUpdate, "ویرایش گروه پیام آماده"},
	{PredefinedGroupDelete, "حذف گروه پیام آماده"},
	{PredefinedCreate, "ایجاد پیام از پیش تعریف‌شده"},
	{PredefinedUpdate, "ویرایش پیام از پیش تعریف‌شده"},
	{PredefinedDelete, "حذف پیام از پیش تعریف‌شده"},
	{DraftCreate, "ذخیره پیش‌نویس"},
	{DraftUpdate, "به‌روزرسانی پیش‌نویس"},
	{DraftDelete, "حذف پیش‌نویس"},
	{InboxDelete, "حذف پیامک‌های دریافتی"},
	{ReaderCreate, "ایجاد منشی"},
	{ReaderUpdate, "ویرایش منشی"},
	{ReaderToggle, "فعال/غیرفعال کردن منشی"},
	{ReaderDelete, "حذف منشی"},
	{ReaderCodes, "بارگذاری کدهای هدیه"},
	{ReaderDraw, "قرعه‌کشی مسابقه"},

	// Codes written as literals by their domains (each package names its own).
	{"auth.password_change", "تغییر رمز عبور"},
	{"auth.session_revoke", "بستن یک نشست"},
	{"auth.logout_everywhere", "خروج از همه دستگاه‌ها"},
	{"auth.impersonated", "ورود پشتیبان به جای کاربر"},
	{"account.send_hours_saved", "تنظیم ساعت‌های مجاز ارسال"},
	{"account.send_hours_cleared", "حذف ساعت‌های مجاز ارسال"},
	{"apikey.create", "ساخت کلید API"},
	{"apikey.delete", "حذف کلید API"},
	{"link.create", "ساخت لینک کوتاه"},
	{"link.delete", "حذف لینک کوتاه"},
	{"partner.create", "افزودن همکار"},
	{"partner.invite", "ارسال دعوت همکار"},
	{"partner.invite_accepted", "پذیرش دعوت همکاری"},
	{"partner.role_create", "ایجاد نقش دسترسی"},
	{"partner.role_update", "ویرایش نقش دسترسی"},
	{"partner.role_delete", "حذف نقش دسترسی"},
	{"payment.offline_create", "ثبت واریز آفلاین"},
	{"profile.update", "ویرایش اطلاعات حساب"},
	{"profile.settings", "تغییر تنظیمات حساب"},
	{"profile.logo", "تغییر لوگو"},
	{"profile.document_upload", "بارگذاری مدرک"},
	{"profile.document_remove", "حذف مدرک"},
	{"profile.mobile_change_request", "درخواست تغییر شماره موبایل"},
	{"profile.mobile_change_cancel", "لغو درخواست تغییر شماره موبایل"},
	{"profile.mobile_change", "تغییر شماره موبایل"},
	{"review.approved", "تأیید ارسال توسط کارشناس"},
	{"review.rejected", "رد ارسال توسط کارشناس"},
	{"support.ticket_create", "ثبت درخواست پشتیبانی"},
	{"support.ticket_reply", "پاسخ به درخواست پشتیبانی"},
	{"support.ticket_close", "بستن درخواست پشتیبانی"},
	{"support.ticket_rate", "امتیاز به پاسخ پشتیبانی"},
	{"support.settings_update", "تغییر تنظیمات پشتیبانی"},
	{"webhook.create", "ساخت وب‌هوک"},
	{"webhook.update", "ویرایش وب‌هوک"},
	{"webhook.delete", "حذف وب‌هوک"},
	{"webhook.replay", "ارسال دوباره رویداد وب‌هوک"},
	{"webhook.test", "آزمایش وب‌هوک"},
	{"staff.account_active", "فعال‌سازی حساب توسط کارشناس"},
	{"staff.account_suspended", "تعلیق حساب توسط کارشناس"},
	{"staff.user_added", "افزودن کارشناس"},
	{"staff.user_active", "فعال‌سازی کارشناس"},
	{"staff.user_disabled", "غیرفعال‌سازی کارشناس"},
	{"staff.user_operations_granted", "دادن دسترسی پایش عملیات به کارشناس"},
	{"staff.user_operations_revoked", "گرفتن دسترسی پایش عملیات از کارشناس"},
	{"staff.credit_adjust", "اصلاح اعتبار توسط کارشناس"},
	{"staff.tariff_set", "تعیین تعرفه"},
	{"staff.impersonate_issued", "صدور ورود پشتیبان"},
	{"staff.line_assigned", "تخصیص خط"},
	{"staff.line_kind_changed", "تغییر نوع خط"},
	{"staff.moderation_saved", "ذخیره قواعد بازبینی"},
	{"staff.content_saved", "ذخیره محتوای پنل"},
	{"staff.content_deleted", "حذف محتوای پنل"},
	{"staff.send_hours_saved", "تنظیم ساعت‌های ارسال اپراتور"},
	{"staff.send_hours_deleted", "حذف ساعت‌های ارسال اپراتور"},
	{"staff.operator_blocklist_imported", "ورود فهرست مسدودی تبلیغاتی اپراتور (*۸۰۰#)"},
	{"staff.operator_blocklist_removed", "حذف شماره از فهرست مسدودی تبلیغاتی اپراتور"},
	{"staff.invoice_seller_changed", "تغییر مشخصات فروشنده فاکتور"},
	{"staff.payment_gateway_changed", "تغییر درگاه پرداخت آنلاین"},
	{"staff.pattern_systemic_saved", "ذخیره الگوی سیستمی"},
	{"staff.ticket_answer", "پاسخ کارشناس به درخواست"},
	{"staff.ticket_state", "تغییر وضعیت درخواست"},
	{"staff.ticket_assign", "ارجاع درخواست"},
	{"staff.canned_answer", "ویرایش پاسخ آماده"},
	{"staff.faq", "ویرایش پرسش‌های متداول"},
	{"staff.old_panel_saved", "تنظیم نوار پنل قدیم"},
}

// Label is an action code and its Persian name.
type Label struct {
	Code  string `json:"value"`
	Title string `json:"label"`
}

var labelOf = func() map[string]string {
	m := make(map[string]string, len(Labels))
	for _, l := range Labels {
		m[l.Code] = l.Title
	}
	return m
}()

// Title is the Persian name of an action code, or the code itself when unknown.
func Title(code string) string {
	if t, ok := labelOf[code]; ok {
		return t
	}
	return code
}
