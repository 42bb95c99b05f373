package devdocs

// Setting is one value an integration asks for, with where to find it.
type Setting struct {
	Name    string `json:"name"`
	Title   string `json:"title"`
	Example string `json:"example"`
}

// Plugin is one integration of the catalogue.
type Plugin struct {
	ID          string    `json:"id"`
	Title       string    `json:"title"`
	Summary     string    `json:"summary"`
	Status      string    `json:"status"` // "ready": works today; "guide": instructions only
	Steps       []string  `json:"steps"`
	Settings    []Setting `json:"settings"`
	Example     string    `json:"example,omitempty"`
	Permissions []string  `json:"permissions"`
	// Download is the path of the plugin's zip (GET, public), when it has one.
	Download string `json:"download,omitempty"`
}

// Plugin statuses.
const (
	StatusReady = "ready"
	StatusGuide = "guide"
)

var keySetting = Setting{Name: "apikey", Title: "کلید API (از صفحه کلیدهای API؛ فقط دسترسی ارسال پیامک)", Example: "chp_live_…"}
var fromSetting = Setting{Name: "from", Title: "خط ارسال (از صفحه خطوط)", Example: "30001234"}

// wordpressPlugin is the WordPress plugin «پیامک چاپار» (integrations/wordpress,
// docs/wordpress.md), downloadable as a zip.
var wordpressPlugin = Plugin{ID: "wordpress", Title: "افزونه وردپرس «پیامک چاپار»", Status: StatusReady,
	Summary: "افزونه آماده وردپرس: پیامک خوش‌آمد ثبت‌نام و بازیابی رمز، تأیید موبایل کاربران با کد یکبارمصرف (الگو) با کد کوتاه [chapar_verify_mobile]، ارسال آزمایشی از پیشخوان، و کنش chapar_send_sms برای افزونه‌های دیگر.",
	Steps: []string{
		"بسته افزونه (chapar-sms.zip) را از دکمه همین کارت بارگیری کنید.",
		"در پیشخوان وردپرس، افزونه‌ها ← افزودن ← بارگذاری افزونه، فایل zip را بارگذاری و افزونه «Chapar SMS» را فعال کنید.",
		"یک کلید API با دسترسی‌های «ارسال پیامک»، «مشاهده خطوط» و «مشاهده کیف پول» بسازید.",
		"در تنظیمات ← «پیامک چاپار» نشانی سامانه و کلید را ذخیره کنید؛ سپس خط ارسال را از فهرست خطوط حساب و کد الگوی پیامک تأیید (از نوع رمز یکبار مصرف) را وارد کنید.",
		"با «ارسال آزمایشی» یک پیامک به موبایل خود بفرستید؛ نتیجه یا پیام خطای چاپار همان‌جا نمایش داده می‌شود.",
		"برای تأیید موبایل کاربران، کد کوتاه [chapar_verify_mobile] را در یک برگه بگذارید.",
	},
	Settings: []Setting{{Name: "base_url", Title: "نشانی سامانه (نشانی همین پنل)", Example: "https://sms.example.ir"},
		{Name: "api_key", Title: "کلید API (دسترسی‌های ارسال پیامک، مشاهده خطوط و مشاهده کیف پول)", Example: "chp_live_…"},
		{Name: "line", Title: "خط ارسال (فهرست خطوط حساب در خود افزونه)", Example: "30001234"},
		{Name: "otp_pattern", Title: "کد الگوی پیامک تأیید (از صفحه الگوها)", Example: "rs88w7w399pp"}},
	Permissions: []string{"send.create", "number.view", "wallet.view"},
	Download:    "/v1/api/plugins/wordpress/download"}

// Plugins returns the integrations catalogue, the working ones first.
func Plugins() []Plugin {
	return []Plugin{
		{ID: "http-get", Title: "نشانی ارسال با GET (دستگاه‌ها و نرم‌افزارهای قدیمی)", Status: StatusReady,
			Summary: "هر سامانه‌ای که فقط می‌تواند یک نشانی اینترنتی را باز کند (دستگاه حضور و غیاب، دزدگیر، نرم‌افزار حسابداری قدیمی) با یک درخواست GET پیامک می‌فرستد.",
			Steps: []string{
				"یک کلید API فقط با دسترسی «ارسال پیامک» بسازید و در صورت امکان آن را به نشانی IP دستگاه محدود کنید.",
				"نشانی زیر را با مقادیر خود در دستگاه وارد کنید؛ متن باید URL-encoded باشد.",
				"پاسخ، پوشش JSON است؛ با format=text فقط شناسه ارسال (یا یک خط ERROR) برمی‌گردد.",
				"سقف درخواست‌ها همان سقف کلید است؛ پس از آن پاسخ ۴۲۹ با Retry-After.",
			},
			Settings: []Setting{keySetting, {Name: "to", Title: "شماره گیرنده (چند شماره با ویرگول)", Example: "09121234567"},
				{Name: "text", Title: "متن پیامک", Example: "سلام"}, fromSetting,
				{Name: "format", Title: "قالب پاسخ: json یا text", Example: "text"}},
			Example:     "/v1/api/send/simple?apikey=chp_live_…&to=09121234567&from=30001234&text=%D8%B3%D9%84%D8%A7%D9%85&format=text",
			Permissions: []string{"send.create"}},
		wordpressPlugin,
		{ID: "woocommerce", Title: "وردپرس و ووکامرس: پیامک سفارش‌ها", Status: StatusGuide,
			Summary: "با ثبت، پرداخت یا ارسال هر سفارش، پیامکی به خریدار (و در صورت تمایل به مدیر فروشگاه) فرستاده می‌شود.",
			Steps: []string{
				"یک کلید API با دسترسی «ارسال پیامک» و «مشاهده گزارش‌ها» بسازید.",
				"در افزونه پیامک ووکامرس (هر افزونه‌ای که وب‌سرویس دلخواه می‌پذیرد) نشانی POST /v1/api/send و سرآیند apikey را وارد کنید، یا از نشانی GET همین فهرست استفاده کنید.",
				"برای هر وضعیت سفارش متنی با شماره سفارش بنویسید و شماره سفارش را در local_id بفرستید تا وضعیت پیامک با /v1/api/send/status?local_id= پیدا شود.",
				"سرآیند Idempotency-Key را برابر شناسه سفارش و وضعیت آن بگذارید تا تلاش دوباره افزونه پیامک تکراری نفرستد.",
			},
			Settings:    []Setting{keySetting, fromSetting, {Name: "admin_mobile", Title: "موبایل مدیر فروشگاه (اختیاری)", Example: "09121234567"}},
			Permissions: []string{"send.create", "report.view"}},
		{ID: "email-bridge", Title: "پل ایمیل به پیامک (SMTP)", Status: StatusGuide,
			Summary: "ایمیلی که به نشانی قرارداد‌شده (مانند 0912xxxxxxx@sms.example.ir) فرستاده شود، به پیامک تبدیل می‌شود؛ برای سامانه‌های پایش و هشدار که فقط ایمیل می‌فرستند.",
			Steps: []string{
				"یک سرور SMTP سبک (مانند Postfix با یک اسکریپت pipe) روی سرور خود راه بیندازید.",
				"اسکریپت، شماره را از نشانی گیرنده و متن را از موضوع ایمیل برمی‌دارد و POST /v1/api/send را با کلید API صدا می‌زند.",
				"فرستنده‌های مجاز ایمیل را محدود کنید تا پل به ابزار هرزنامه تبدیل نشود.",
			},
			Settings:    []Setting{keySetting, fromSetting, {Name: "domain", Title: "دامنه ایمیل پل", Example: "sms.example.ir"}},
			Permissions: []string{"send.create"}},
	}
}
