<?php
/**
 * Iranian mobile numbers: Persian and Arabic digits to Latin, and the usual forms
 * (09…, 9…, 989…, +989…, 00989…) to 09xxxxxxxxx.
 *
 * @package ChaparSMS
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Turns Persian (۰-۹) and Arabic-Indic (٠-٩) digits into Latin ones.
 *
 * @param string $s Any text.
 * @return string
 */
function chapar_sms_latin_digits( $s ) {
	return strtr(
		(string) $s,
		array(
			'۰' => '0', '۱' => '1', '۲' => '2', '۳' => '3', '۴' => '4',
			'۵' => '5', '۶' => '6', '۷' => '7', '۸' => '8', '۹' => '9',
			'٠' => '0', '١' => '1', '٢' => '2', '٣' => '3', '٤' => '4',
			'٥' => '5', '٦' => '6', '٧' => '7', '٨' => '8', '٩' => '9',
		)
	);
}

/**
 * An Iranian mobile number in the form 09xxxxxxxxx, or '' when the input is not one.
 *
 * @param string $raw What the user typed.
 * @return string
 */
function chapar_sms_normalize_mobile( $raw ) {
	$s = preg_replace( '/[\s\-\(\)\.]/u', '', chapar_sms_latin_digits( trim( (string) $raw ) ) );
	if ( preg_match( '/^(?:\+98|0098|98|0)?(9\d{9})$/', $s, $m ) ) {
		return '0' . $m[1];
	}
	return '';
}

/**
 * The Persian message for a mobile number that is not valid.
 *
 * @return string
 */
function chapar_sms_bad_mobile_message() {
	return __( 'شماره موبایل معتبر نیست؛ آن را به شکل ۰۹۱۲۱۲۳۴۵۶۷ وارد کنید.', 'chapar-sms' );
}
