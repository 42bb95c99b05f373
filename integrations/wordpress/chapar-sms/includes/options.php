<?php
/**
 * The plugin's settings: one option (chapar_sms_settings) with defaults.
 *
 * @package ChaparSMS
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

define( 'CHAPAR_SMS_OPTION', 'chapar_sms_settings' );

/**
 * The default settings; the message texts take {site_name}, {user_login} and {display_name}.
 *
 * @return array
 */
function chapar_sms_defaults() {
	return array(
		'base_url'       => '',
		'api_key'        => '',
		'line'           => '',
		'otp_pattern'    => '',
		'otp_variable'   => 'code',
		'welcome_on'     => 1,
		'welcome_text'   => '{display_name} عزیز، به {site_name} خوش آمدید.',
		'reset_on'       => 1,
		'reset_text'     => 'درخواست بازیابی رمز حساب {user_login} در {site_name} ثبت شد. اگر شما نبودید، این پیامک را نادیده بگیرید.',
		'reset_done_on'  => 1,
		'reset_done_text' => 'رمز حساب {user_login} در {site_name} تغییر کرد.',
	);
}

/**
 * One setting, or all of them (merged over the defaults).
 *
 * @param string|null $key A setting's name; null for the whole array.
 * @return mixed
 */
function chapar_sms_option( $key = null ) {
	$saved = get_option( CHAPAR_SMS_OPTION, array() );
	$all   = array_merge( chapar_sms_defaults(), is_array( $saved ) ? $saved : array() );
	if ( null === $key ) {
		return $all;
	}
	return isset( $all[ $key ] ) ? $all[ $key ] : null;
}

/**
 * A message text with its placeholders filled in for a user.
 *
 * @param string  $template The text with {site_name}, {user_login}, {display_name}.
 * @param WP_User $user     The user.
 * @return string
 */
function chapar_sms_render( $template, $user ) {
	return strtr(
		(string) $template,
		array(
			'{site_name}'    => wp_specialchars_decode( get_bloginfo( 'name' ), ENT_QUOTES ),
			'{user_login}'   => $user->user_login,
			'{display_name}' => $user->display_name ? $user->display_name : $user->user_login,
		)
	);
}
