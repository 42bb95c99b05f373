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

/**
 * Counts one use of a limited thing (a transient per name) and says whether it is
 * still within $max uses in its window of $window seconds; a use past the limit is
 * refused and not counted. The window starts at the first use.
 *
 * @param string $name   What is limited (for example 'welcome-ip-203.0.113.7').
 * @param int    $max    Uses allowed in the window (0 or less: none).
 * @param int    $window The window in seconds.
 * @return bool Whether this use is allowed.
 */
function chapar_sms_within_limit( $name, $max, $window ) {
	$key = 'chapar_lim_' . md5( $name );
	$now = time();
	$got = get_transient( $key );
	if ( ! is_array( $got ) || (int) $got['until'] <= $now ) {
		$got = array(
			'n'     => 0,
			'until' => $now + $window,
		);
	}
	if ( $got['n'] >= $max ) {
		return false;
	}
	++$got['n'];
	set_transient( $key, $got, max( 1, $got['until'] - $now ) );
	return true;
}

/**
 * The visitor's address as the web server saw it (a proxy's own address behind one).
 *
 * @return string
 */
function chapar_sms_visitor_ip() {
	return isset( $_SERVER['REMOTE_ADDR'] ) ? sanitize_text_field( wp_unslash( $_SERVER['REMOTE_ADDR'] ) ) : '';
}
