<?php
/**
 * Mobile verification by a one-time code sent through a Chapar pattern: the shortcode
 * [chapar_verify_mobile] shows a form (mobile → code) to a signed-in user; a correct
 * code sets the user meta chapar_mobile (the number) and chapar_mobile_verified (1).
 *
 * The code is never stored: a transient per user holds its HMAC, the number, the
 * expiry and the attempts made. A new code waits chapar_sms_otp_resend_after seconds
 * (60) after the last one to the same user or the same number. Filters:
 * chapar_sms_otp_ttl (seconds, 300), chapar_sms_otp_attempts (5), chapar_sms_otp_resend_after.
 *
 * @package ChaparSMS
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * What the last form post of this request did: 'error' and 'notice' texts.
 *
 * @var array
 */
$GLOBALS['chapar_sms_verify_state'] = array(
	'error'  => '',
	'notice' => '',
);

/**
 * The transient name of a user's pending code.
 *
 * @param int $user_id The user.
 * @return string
 */
function chapar_sms_otp_key( $user_id ) {
	return 'chapar_otp_' . (int) $user_id;
}

/**
 * The HMAC of a code for one user and number.
 *
 * @param string $code    The code.
 * @param string $mobile  09… number.
 * @param int    $user_id The user.
 * @return string
 */
function chapar_sms_otp_hash( $code, $mobile, $user_id ) {
	return hash_hmac( 'sha256', $code . '|' . $mobile . '|' . $user_id, wp_salt( 'nonce' ) );
}

/**
 * The user's pending code (hash, mobile, expires, attempts), or null.
 *
 * @param int $user_id The user.
 * @return array|null
 */
function chapar_sms_otp_pending( $user_id ) {
	$p = get_transient( chapar_sms_otp_key( $user_id ) );
	return ( is_array( $p ) && $p['expires'] > time() ) ? $p : null;
}

/**
 * Sends a new code to a number by the pattern of the settings.
 *
 * @param int    $user_id The signed-in user.
 * @param string $raw     The number typed.
 * @return true|WP_Error
 */
function chapar_sms_otp_start( $user_id, $raw ) {
	$mobile = chapar_sms_normalize_mobile( $raw );
	if ( '' === $mobile ) {
		return new WP_Error( 'chapar_mobile', chapar_sms_bad_mobile_message() );
	}
	if ( chapar_sms_mobile_owner( $mobile, $user_id ) ) {
		return new WP_Error( 'chapar_mobile', __( 'این شماره موبایل پیش‌تر برای حساب دیگری ثبت شده است.', 'chapar-sms' ) );
	}
	$wait = max( (int) get_transient( 'chapar_otp_wait_' . $user_id ), (int) get_transient( 'chapar_otp_to_' . md5( $mobile ) ) ) - time();
	if ( $wait > 0 ) {
		/* translators: %s: seconds. */
		return new WP_Error( 'chapar_wait', sprintf( __( 'برای دریافت کد تازه %s ثانیه دیگر صبر کنید.', 'chapar-sms' ), number_format_i18n( $wait ) ) );
	}
	$pattern = trim( (string) chapar_sms_option( 'otp_pattern' ) );
	if ( '' === $pattern ) {
		return new WP_Error( 'chapar_pattern', __( 'کد الگوی پیامک تأیید در تنظیمات افزونه وارد نشده است.', 'chapar-sms' ) );
	}
	$code = str_pad( (string) random_int( 0, 999999 ), 6, '0', STR_PAD_LEFT );
	$var  = trim( (string) chapar_sms_option( 'otp_variable' ) );
	$sent = Chapar_SMS_Client::from_settings()->send_pattern( $mobile, $pattern, array( '' !== $var ? $var : 'code' => $code ) );
	if ( is_wp_error( $sent ) ) {
		return $sent;
	}
	$ttl   = (int) apply_filters( 'chapar_sms_otp_ttl', 300 );
	$again = (int) apply_filters( 'chapar_sms_otp_resend_after', 60 );
	set_transient(
		chapar_sms_otp_key( $user_id ),
		array(
			'hash'     => chapar_sms_otp_hash( $code, $mobile, $user_id ),
			'mobile'   => $mobile,
			'expires'  => time() + $ttl,
			'attempts' => 0,
		),
		$ttl
	);
	set_transient( 'chapar_otp_wait_' . $user_id, time() + $again, $again );
	set_transient( 'chapar_otp_to_' . md5( $mobile ), time() + $again, $again );
	return true;
}

/**
 * Checks a typed code against the pending one; a match verifies the number.
 *
 * @param int    $user_id The signed-in user.
 * @param string $raw     The code typed.
 * @return true|WP_Error
 */
function chapar_sms_otp_check( $user_id, $raw ) {
	$p = chapar_sms_otp_pending( $user_id );
	if ( ! $p ) {
		return new WP_Error( 'chapar_expired', __( 'کد تأیید منقضی شده است؛ دوباره درخواست کد کنید.', 'chapar-sms' ) );
	}
	$code = preg_replace( '/\D/', '', chapar_sms_latin_digits( $raw ) );
	if ( hash_equals( $p['hash'], chapar_sms_otp_hash( $code, $p['mobile'], $user_id ) ) ) {
		delete_transient( chapar_sms_otp_key( $user_id ) );
		update_user_meta( $user_id, 'chapar_mobile', $p['mobile'] );
		update_user_meta( $user_id, 'chapar_mobile_verified', 1 );
		do_action( 'chapar_mobile_verified', $user_id, $p['mobile'] );
		return true;
	}
	++$p['attempts'];
	$left = (int) apply_filters( 'chapar_sms_otp_attempts', 5 ) - $p['attempts'];
	if ( $left <= 0 ) {
		delete_transient( chapar_sms_otp_key( $user_id ) );
		return new WP_Error( 'chapar_attempts', __( 'کد چند بار نادرست وارد شد؛ دوباره درخواست کد کنید.', 'chapar-sms' ) );
	}
	set_transient( chapar_sms_otp_key( $user_id ), $p, max( 1, $p['expires'] - time() ) );
	/* translators: %s: attempts left. */
	return new WP_Error( 'chapar_code', sprintf( __( 'کد تأیید نادرست است؛ %s بار دیگر می‌توانید امتحان کنید.', 'chapar-sms' ), number_format_i18n( $left ) ) );
}

add_action( 'init', 'chapar_sms_verify_handle' );

/**
 * Handles a post of the verification form (before any output).
 */
function chapar_sms_verify_handle() {
	// phpcs:ignore WordPress.Security.NonceVerification -- checked below.
	$step = isset( $_POST['chapar_verify_step'] ) ? sanitize_key( wp_unslash( $_POST['chapar_verify_step'] ) ) : '';
	if ( '' === $step || ! is_user_logged_in() ) {
		return;
	}
	$state = &$GLOBALS['chapar_sms_verify_state'];
	if ( ! isset( $_POST['_chapar_nonce'] ) || ! wp_verify_nonce( sanitize_key( wp_unslash( $_POST['_chapar_nonce'] ) ), 'chapar_verify_mobile' ) ) {
		$state['error'] = __( 'اعتبار فرم به پایان رسیده است؛ صفحه را دوباره باز کنید.', 'chapar-sms' );
		return;
	}
	$uid = get_current_user_id();
	if ( 'cancel' === $step ) {
		delete_transient( chapar_sms_otp_key( $uid ) );
		return;
	}
	$field  = 'send' === $step ? 'chapar_mobile' : 'chapar_code';
	$value  = isset( $_POST[ $field ] ) ? sanitize_text_field( wp_unslash( $_POST[ $field ] ) ) : '';
	$result = 'send' === $step ? chapar_sms_otp_start( $uid, $value ) : chapar_sms_otp_check( $uid, $value );
	if ( is_wp_error( $result ) ) {
		$state['error'] = $result->get_error_message();
	} elseif ( 'send' === $step ) {
		$state['notice'] = __( 'کد تأیید پیامک شد.', 'chapar-sms' );
	} else {
		$state['notice'] = __( 'شماره موبایل شما تأیید شد.', 'chapar-sms' );
	}
}

add_shortcode( 'chapar_verify_mobile', 'chapar_sms_verify_shortcode' );

/**
 * The [chapar_verify_mobile] form.
 *
 * @return string
 */
function chapar_sms_verify_shortcode() {
	if ( ! is_user_logged_in() ) {
		return '<div class="chapar-verify" dir="rtl"><p>' . sprintf(
			/* translators: %s: the login link. */
			esc_html__( 'برای تأیید شماره موبایل ابتدا %s.', 'chapar-sms' ),
			'<a href="' . esc_url( wp_login_url( get_permalink() ) ) . '">' . esc_html__( 'وارد شوید', 'chapar-sms' ) . '</a>'
		) . '</p></div>';
	}
	$uid   = get_current_user_id();
	$state = $GLOBALS['chapar_sms_verify_state'];
	ob_start();
	echo '<div class="chapar-verify" id="chapar-verify" dir="rtl">';
	if ( '' !== $state['error'] ) {
		echo '<p class="chapar-verify-error" id="chapar-verify-error" role="alert" style="white-space:pre-line">' . esc_html( $state['error'] ) . '</p>';
	}
	if ( '' !== $state['notice'] ) {
		echo '<p class="chapar-verify-notice" id="chapar-verify-notice" role="status">' . esc_html( $state['notice'] ) . '</p>';
	}
	$pending = chapar_sms_otp_pending( $uid );
	if ( $pending ) {
		chapar_sms_verify_code_form( $pending['mobile'] );
	} else {
		chapar_sms_verify_mobile_form( $uid );
	}
	echo '</div>';
	return (string) ob_get_clean();
}

/**
 * The first step: the number (the saved one filled in) and «ارسال کد».
 *
 * @param int $uid The signed-in user.
 */
function chapar_sms_verify_mobile_form( $uid ) {
	$mobile   = (string) get_user_meta( $uid, 'chapar_mobile', true );
	$verified = $mobile && get_user_meta( $uid, 'chapar_mobile_verified', true );
	if ( $verified ) {
		/* translators: %s: the mobile number. */
		echo '<p class="chapar-verify-done" id="chapar-verify-done">' . sprintf( esc_html__( 'شماره %s تأیید شده است.', 'chapar-sms' ), '<bdi dir="ltr">' . esc_html( $mobile ) . '</bdi>' ) . '</p>';
	}
	?>
	<form method="post" class="chapar-verify-form">
		<?php wp_nonce_field( 'chapar_verify_mobile', '_chapar_nonce' ); ?>
		<input type="hidden" name="chapar_verify_step" value="send" />
		<p>
			<label for="chapar-verify-mobile"><?php esc_html_e( 'شماره موبایل', 'chapar-sms' ); ?></label><br />
			<input type="tel" id="chapar-verify-mobile" name="chapar_mobile" dir="ltr" inputmode="tel" required
				placeholder="09121234567" value="<?php echo esc_attr( $mobile ); ?>" />
		</p>
		<p><button type="submit" id="chapar-verify-send"><?php esc_html_e( 'ارسال کد تأیید', 'chapar-sms' ); ?></button></p>
	</form>
	<?php
}

/**
 * The second step: the code sent to the number, and «تغییر شماره».
 *
 * @param string $mobile The number the code went to.
 */
function chapar_sms_verify_code_form( $mobile ) {
	?>
	<form method="post" class="chapar-verify-form">
		<?php wp_nonce_field( 'chapar_verify_mobile', '_chapar_nonce' ); ?>
		<input type="hidden" name="chapar_verify_step" value="check" />
		<p>
			<label for="chapar-verify-code">
				<?php
				/* translators: %s: the mobile number. */
				printf( esc_html__( 'کد پیامک‌شده به %s', 'chapar-sms' ), '<bdi dir="ltr">' . esc_html( $mobile ) . '</bdi>' );
				?>
			</label><br />
			<input type="text" id="chapar-verify-code" name="chapar_code" dir="ltr" inputmode="numeric" autocomplete="one-time-code" required />
		</p>
		<p><button type="submit" id="chapar-verify-check"><?php esc_html_e( 'تأیید', 'chapar-sms' ); ?></button></p>
	</form>
	<form method="post" class="chapar-verify-form">
		<?php wp_nonce_field( 'chapar_verify_mobile', '_chapar_nonce' ); ?>
		<input type="hidden" name="chapar_verify_step" value="cancel" />
		<p><button type="submit" class="chapar-verify-cancel" id="chapar-verify-cancel"><?php esc_html_e( 'تغییر شماره یا کد تازه', 'chapar-sms' ); ?></button></p>
	</form>
	<?php
}
