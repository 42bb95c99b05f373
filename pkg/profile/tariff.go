package profile

import (
	"context"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/operator"
	"github.com/chapar/chapar/pkg/sms"
)

// OperatorTitles are the operators' Persian names.
var OperatorTitles = map[string]string{
	operator.MCI: "همراه اول", operator.Irancell: "ایرانسل", operator.Rightel: "رایتل", operator.Other: "سایر",
}

// EncodingPrice is one operator's price of a message in one encoding.
type EncodingPrice struct {
	Encoding   string `json:"encoding"`
	SinglePart int    `json:"single_part_chars"`
	MultiPart  int    `json:"multi_part_chars"`
	// OnePart and TwoParts are the price of one message of one and of two parts.
	OnePart  int64 `json:"one_part"`
	TwoParts int64 `json:"two_parts"`
}

// OperatorTariff is the account's tariff of one operator (spec §9).
type OperatorTariff struct {
	Operator     string          `json:"operator"`
	Title        string          `json:"title"`
	PartPrice    int64           `json:"part_price"`
	SurchargePct int64           `json:"surcharge_pct"`
	SendFee      int64           `json:"send_fee"`
	Encodings    []EncodingPrice `json:"encodings"`
}

// Tariffs are the account's prices, per operator and encoding.
type Tariffs struct {
	Operators   []OperatorTariff `json:"operators"`
	CharityPct  int64            `json:"charity_pct"`
	Cancel11Len int              `json:"cancel11_chars"`
}

// Tariffs returns the tariffs that price the account's sends (its own rows over the
// defaults; pkg/operator), with each encoding's capacity and price.
func (s *Service) Tariffs(ctx context.Context, accountID int64) (Tariffs, error) {
	tbl, err := operator.Load(ctx, s.pool, accountID)
	if err != nil {
		return Tariffs{}, err
	}
	out := Tariffs{CharityPct: operator.CharityPct, Cancel11Len: len([]rune(sms.Cancel11Footer))}
	for _, code := range operator.Codes {
		tr := tbl.Tariff(code)
		out.Operators = append(out.Operators, OperatorTariff{Operator: code, Title: OperatorTitles[code], PartPrice: tr.PartPrice,
			SurchargePct: tr.SurchargePct, SendFee: tr.SendFee, Encodings: []EncodingPrice{
				{Encoding: "gsm7", SinglePart: sms.SinglePartGSM7, MultiPart: sms.MultiPartGSM7, OnePart: tr.Price(1), TwoParts: tr.Price(2)},
				{Encoding: "ucs2", SinglePart: sms.SinglePartUCS2, MultiPart: sms.MultiPartUCS2, OnePart: tr.Price(1), TwoParts: tr.Price(2)},
			}})
	}
	return out, nil
}

// Calculation is the price calculator's answer: the text's parts and, per operator,
// the price of one message and of count messages.
type Calculation struct {
	Parts      int                `json:"parts"`
	Encoding   string             `json:"encoding"`
	Characters int                `json:"characters"`
	CharsLeft  int                `json:"chars_left"`
	Count      int64              `json:"count"`
	Prices     []CalculationPrice `json:"prices"`
}

// CalculationPrice is one operator's price of the calculated text.
type CalculationPrice struct {
	Operator string `json:"operator"`
	Title    string `json:"title"`
	Each     int64  `json:"each"`
	Total    int64  `json:"total"`
}

// MaxCalcCount bounds the calculator's message count.
const MaxCalcCount = 10_000_000

// MsgCalcCount refuses a count outside 1..MaxCalcCount.
const MsgCalcCount = "تعداد پیامک باید بین ۱ و ۱۰٬۰۰۰٬۰۰۰ باشد"

// Calculate prices count messages of text (with the cancel-11 footer when cancel11)
// at the account's tariffs, exactly as a send would (pkg/sms counts the parts).
func (s *Service) Calculate(ctx context.Context, accountID int64, text string, cancel11 bool, count int64) (Calculation, error) {
	if err := sms.CheckLength(text); err != nil {
		return Calculation{}, apperr.Field("text", err.Error())
	}
	if count < 1 || count > MaxCalcCount {
		return Calculation{}, apperr.Field("count", MsgCalcCount)
	}
	tbl, err := operator.Load(ctx, s.pool, accountID)
	if err != nil {
		return Calculation{}, err
	}
	st := sms.Count(text, cancel11)
	out := Calculation{Parts: st.Parts, Encoding: st.Encoding.String(), Characters: st.Characters, CharsLeft: st.CharsLeft, Count: count}
	for _, code := range operator.Codes {
		each := tbl.Price(code, st.Parts)
		out.Prices = append(out.Prices, CalculationPrice{Operator: code, Title: OperatorTitles[code], Each: each, Total: each * count})
	}
	return out, nil
}
