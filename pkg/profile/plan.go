package profile

import (
	"context"
	"fmt"

	"github.com/chapar/chapar/pkg/plan"
)

// Plan is one of the panel plans and its limits (spec §6: some services need a plan
// upgrade, requested by a ticket); pkg/plan defines and enforces them.
type Plan = plan.Plan

// Facility is one service of the panel with whether the account's plan has it.
type Facility struct {
	Code      string `json:"code"`
	Title     string `json:"title"`
	Detail    string `json:"detail"`
	Available bool   `json:"available"`
	// MinPlan is the first plan that has the service.
	MinPlan string `json:"min_plan"`
}

// Plans are the plans in upgrade order; each has its predecessor's services.
var Plans = plan.Plans

// services are the facilities in display order with their Persian titles and details.
var services = []Facility{
	{Code: plan.ServiceBulk, Title: "ارسال انبوه", Detail: "ارسال سریع، فایل، دفترچه تلفن، نظیر به نظیر و کلیدواژه"},
	{Code: plan.ServicePattern, Title: "پیامک الگو (پترن)", Detail: "ارسال کد تایید و پیام‌های خدماتی با الگوی تاییدشده"},
	{Code: plan.ServiceAPI, Title: "وب‌سرویس و کلید API", Detail: "اتصال سامانه‌های شما برای ارسال و دریافت گزارش"},
	{Code: plan.ServicePhonebook, Title: "دفترچه تلفن", Detail: "گروه‌ها، برچسب‌ها، ویژگی‌های سفارشی و لیست سیاه"},
	{Code: plan.ServiceVoiceOTP, Title: "کد تایید صوتی", Detail: "خواندن کد تایید با تماس صوتی"},
	{Code: plan.ServiceUTM, Title: "ردیابی آماری لینک (UTM)", Detail: "آمار کلیک لینک‌های پیامک با پارامترهای UTM"},
	{Code: plan.ServiceSecretary, Title: "منشی پیامک", Detail: "پاسخ خودکار، مسابقه، نظرسنجی و جشنواره"},
	{Code: plan.ServiceKeyword, Title: "کلیدخوان", Detail: "خواندن کدهای دریافتی و پاسخ خودکار"},
	{Code: plan.ServiceLocation, Title: "ارسال منطقه‌ای و مکانی", Detail: "ارسال بر اساس استان، شهر، کد پستی، نقشه و دکل"},
	{Code: plan.ServiceOwnLine, Title: "خط اختصاصی", Detail: "خط ارسال به نام کسب‌وکار شما"},
}

// PlanInfo is the account's plan, its limits, every plan and the facilities.
type PlanInfo struct {
	Current    Plan       `json:"current"`
	Plans      []Plan     `json:"plans"`
	Facilities []Facility `json:"facilities"`
	Usage      Usage      `json:"usage"`
}

// Usage is what the account uses of its plan's limits.
type Usage struct {
	Lines      int   `json:"lines"`
	Colleagues int   `json:"colleagues"`
	APIKeys    int   `json:"api_keys"`
	FilesBytes int64 `json:"files_bytes"`
}

// PlanInfo returns the account's plan and facilities.
func (s *Service) PlanInfo(ctx context.Context, accountID int64) (PlanInfo, error) {
	var code string
	var u Usage
	err := s.pool.QueryRow(ctx, `SELECT a.plan,
		(SELECT count(*) FROM lines WHERE account_id = a.id),
		(SELECT count(*) FROM users WHERE account_id = a.id AND NOT is_owner AND status <> 'disabled'),
		(SELECT count(*) FROM api_keys WHERE account_id = a.id AND revoked_at IS NULL),
		(SELECT coalesce(sum(size), 0) FROM files WHERE account_id = a.id)
		FROM accounts a WHERE a.id = $1`, accountID).Scan(&code, &u.Lines, &u.Colleagues, &u.APIKeys, &u.FilesBytes)
	if err != nil {
		return PlanInfo{}, fmt.Errorf("plan: %w", err)
	}
	return planInfo(code, u), nil
}

// planInfo places the account's plan in the catalogue: its services are those of
// every plan up to it.
func planInfo(code string, u Usage) PlanInfo {
	out := PlanInfo{Plans: Plans, Usage: u}
	minPlan := map[string]string{}
	have := map[string]bool{}
	reached := true
	for _, p := range Plans {
		for _, sv := range p.Services {
			minPlan[sv], have[sv] = p.Code, reached
		}
		if p.Code == code {
			out.Current, reached = p, false
		}
	}
	for _, f := range services {
		f.Available, f.MinPlan = have[f.Code], minPlan[f.Code]
		out.Facilities = append(out.Facilities, f)
	}
	return out
}
