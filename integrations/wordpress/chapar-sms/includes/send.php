<?php
/**
 * Sending for this site and for other plugins:
 *
 *   $result = chapar_sms_send( '09121234567', 'متن' );          // array or WP_Error
 *   do_action( 'chapar_send_sms', '09121234567', 'متن' );       // fire and forget
 *   $result = apply_filters( 'chapar_sms_send', null, '09121234567', 'متن' ); // no function_exists check needed
 *
 * Each send then fires `chapar_sms_sent` ($result, $mobile, $text) on success or
 * `chapar_sms_failed` ($error, $mobile, $text) on failure.
 *
 * @package ChaparSMS
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Sends a text to one Iranian mobile from the line of the settings.
 *
 * @param string $mobile The number in any usual form (09…, +98…, Persian digits).
 * @param string $text   The message.
 * @param array  $args   Optional: 'idempotency_key' (a retry with the same key sends once).
 * @return array|WP_Error The accepted send ({id, status, price, sender, cancel11}) or the
 *                        error with Chapar's Persian message.
 */
function chapar_sms_send( $mobile, $text, $args = array() ) {
	$to = chapar_sms_normalize_mobile( $mobile );
	if ( '' === $to ) {
		$result = new WP_Error( 'chapar_mobile', chapar_sms_bad_mobile_message() );
	} else {
		$idem   = isset( $args['idempotency_key'] ) ? (string) $args['idempotency_key'] : '';
		$result = Chapar_SMS_Client::from_settings()->send_quick( $to, $text, chapar_sms_option( 'line' ), $idem );
	}
	chapar_sms_after_send( $result, $to, $text );
	return $result;
}

/**
 * Fires the after-send actions and notes failures in the PHP log.
 *
 * @param array|WP_Error $result What the API answered.
 * @param string         $mobile The number.
 * @param string         $text   The message.
 */
function chapar_sms_after_send( $result, $mobile, $text ) {
	if ( is_wp_error( $result ) ) {
		error_log( sprintf( 'chapar-sms: send to %s failed: %s', $mobile, $result->get_error_message() ) ); // phpcs:ignore WordPress.PHP.DevelopmentFunctions
		do_action( 'chapar_sms_failed', $result, $mobile, $text );
		return;
	}
	do_action( 'chapar_sms_sent', $result, $mobile, $text );
}

add_action(
	'chapar_send_sms',
	static function ( $mobile, $text ) {
		chapar_sms_send( $mobile, $text );
	},
	10,
	2
);

add_filter(
	'chapar_sms_send',
	static function ( $pre, $mobile, $text ) {
		if ( null !== $pre ) {
			return $pre;
		}
		return chapar_sms_send( $mobile, $text );
	},
	10,
	3
);
