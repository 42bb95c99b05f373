<?php
/**
 * The users' mobile (user meta chapar_mobile): a field on the registration form, the
 * admin's new-user form and the profile, checked as an Iranian mobile; a welcome SMS on
 * registration and SMS on password reset (requested, then done).
 *
 * @package ChaparSMS
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The user id holding a mobile, other than $except (0 when none).
 *
 * @param string $mobile 09… number.
 * @param int    $except A user id to ignore.
 * @return int
 */
function chapar_sms_mobile_owner( $mobile, $except = 0 ) {
	$ids = get_users(
		array(
			'meta_key'   => 'chapar_mobile', // phpcs:ignore WordPress.DB.SlowDBQuery
			'meta_value' => $mobile, // phpcs:ignore WordPress.DB.SlowDBQuery
			'exclude'    => $except ? array( $except ) : array(),
			'fields'     => 'ID',
			'number'     => 1,
		)
	);
	return $ids ? (int) $ids[0] : 0;
}

/**
 * Checks a typed mobile: '' when valid (or empty and optional), else the Persian error.
 *
 * @param string $raw      What was typed.
 * @param bool   $required Whether an empty field is an error.
 * @param int    $user_id  The user it is for (0 for a new one).
 * @return string
 */
function chapar_sms_mobile_error( $raw, $required, $user_id = 0 ) {
	if ( '' === trim( (string) $raw ) ) {
		return $required ? __( 'شماره موبایل را وارد کنید.', 'chapar-sms' ) : '';
	}
	$mobile = chapar_sms_normalize_mobile( $raw );
	if ( '' === $mobile ) {
		return chapar_sms_bad_mobile_message();
	}
	if ( chapar_sms_mobile_owner( $mobile, $user_id ) ) {
		return __( 'این شماره موبایل پیش‌تر برای حساب دیگری ثبت شده است.', 'chapar-sms' );
	}
	return '';
}

/**
 * The posted mobile field (unslashed), '' when absent.
 *
 * @return string
 */
function chapar_sms_posted_mobile() {
	// phpcs:ignore WordPress.Security.NonceVerification -- read inside WordPress's own form handlers.
	return isset( $_POST['chapar_mobile'] ) ? sanitize_text_field( wp_unslash( $_POST['chapar_mobile'] ) ) : '';
}

add_action(
	'register_form',
	static function () {
		$value = chapar_sms_posted_mobile();
		?>
		<p>
			<label for="chapar_mobile"><?php esc_html_e( 'شماره موبایل', 'chapar-sms' ); ?></label>
			<input type="tel" name="chapar_mobile" id="chapar_mobile" class="input" dir="ltr" autocomplete="tel" inputmode="tel"
				placeholder="09121234567" value="<?php echo esc_attr( $value ); ?>" size="20" />
		</p>
		<?php
	}
);

add_filter(
	'registration_errors',
	static function ( $errors ) {
		$msg = chapar_sms_mobile_error( chapar_sms_posted_mobile(), true );
		if ( '' !== $msg ) {
			$errors->add( 'chapar_mobile', '<strong>' . esc_html__( 'خطا', 'chapar-sms' ) . '</strong>: ' . esc_html( $msg ) );
		}
		return $errors;
	}
);

add_action(
	'user_new_form',
	static function () {
		chapar_sms_profile_rows( '', false );
	}
);

add_action(
	'user_register',
	static function ( $user_id ) {
		$mobile = chapar_sms_normalize_mobile( chapar_sms_posted_mobile() );
		if ( '' !== $mobile && ! chapar_sms_mobile_owner( $mobile, $user_id ) ) {
			update_user_meta( $user_id, 'chapar_mobile', $mobile );
		}
	},
	5
);

add_action( 'user_register', 'chapar_sms_welcome', 20 );

/**
 * The welcome SMS of a new user who has a mobile (once per user: the send carries an
 * Idempotency-Key of this site and user).
 *
 * @param int $user_id The new user.
 */
function chapar_sms_welcome( $user_id ) {
	$mobile = get_user_meta( $user_id, 'chapar_mobile', true );
	$user   = get_userdata( $user_id );
	if ( ! chapar_sms_option( 'welcome_on' ) || ! $mobile || ! $user ) {
		return;
	}
	// Open registration lets anyone text a number: a few welcomes an hour from one
	// address (filter chapar_sms_welcome_per_ip_hour, 5); an admin adding users is not limited.
	$ip = chapar_sms_visitor_ip();
	if ( ! current_user_can( 'create_users' ) && '' !== $ip &&
		! chapar_sms_within_limit( 'welcome-ip-' . $ip, (int) apply_filters( 'chapar_sms_welcome_per_ip_hour', 5 ), HOUR_IN_SECONDS ) ) {
		return;
	}
	$key = 'wp-' . substr( md5( home_url() ), 0, 10 ) . '-welcome-' . $user_id;
	chapar_sms_send( $mobile, chapar_sms_render( chapar_sms_option( 'welcome_text' ), $user ), array( 'idempotency_key' => $key ) );
}

add_action(
	'retrieve_password',
	static function ( $user_login ) {
		$user = get_user_by( 'login', $user_login );
		if ( ! $user ) {
			$user = get_user_by( 'email', $user_login );
		}
		$mobile = $user ? get_user_meta( $user->ID, 'chapar_mobile', true ) : '';
		// Anyone may ask for a user's reset: one text per user every 2 minutes and 5 a
		// day (filters chapar_sms_reset_every, chapar_sms_reset_per_day).
		if ( $mobile && chapar_sms_option( 'reset_on' ) && chapar_sms_reset_allowed( $user->ID ) ) {
			chapar_sms_send( $mobile, chapar_sms_render( chapar_sms_option( 'reset_text' ), $user ) );
		}
	}
);

/**
 * Whether a reset text may go to a user now (chapar_sms_within_limit, twice).
 *
 * @param int $user_id The user.
 * @return bool
 */
function chapar_sms_reset_allowed( $user_id ) {
	$every = (int) apply_filters( 'chapar_sms_reset_every', 2 * MINUTE_IN_SECONDS );
	if ( ! chapar_sms_within_limit( 'reset-' . $user_id, 1, max( 1, $every ) ) ) {
		return false;
	}
	return chapar_sms_within_limit( 'reset-day-' . $user_id, (int) apply_filters( 'chapar_sms_reset_per_day', 5 ), DAY_IN_SECONDS );
}

add_action(
	'after_password_reset',
	static function ( $user ) {
		$mobile = get_user_meta( $user->ID, 'chapar_mobile', true );
		if ( $mobile && chapar_sms_option( 'reset_done_on' ) ) {
			chapar_sms_send( $mobile, chapar_sms_render( chapar_sms_option( 'reset_done_text' ), $user ) );
		}
	}
);

/**
 * The mobile rows of the profile and new-user forms.
 *
 * @param string $mobile   The saved mobile.
 * @param bool   $verified Whether it was verified by a code.
 */
function chapar_sms_profile_rows( $mobile, $verified ) {
	?>
	<h2><?php esc_html_e( 'پیامک چاپار', 'chapar-sms' ); ?></h2>
	<table class="form-table" role="presentation">
		<tr>
			<th><label for="chapar_mobile"><?php esc_html_e( 'شماره موبایل', 'chapar-sms' ); ?></label></th>
			<td>
				<input type="tel" name="chapar_mobile" id="chapar_mobile" class="regular-text" dir="ltr" inputmode="tel"
					placeholder="09121234567" value="<?php echo esc_attr( $mobile ); ?>" />
				<?php if ( '' !== $mobile ) : ?>
					<p class="description" id="chapar-mobile-status">
						<?php echo $verified ? esc_html__( 'تأیید شده با کد پیامکی', 'chapar-sms' ) : esc_html__( 'هنوز تأیید نشده است', 'chapar-sms' ); ?>
					</p>
				<?php endif; ?>
			</td>
		</tr>
	</table>
	<?php
}

/**
 * The profile's mobile rows for a user.
 *
 * @param WP_User $user The user shown.
 */
function chapar_sms_profile_section( $user ) {
	chapar_sms_profile_rows(
		(string) get_user_meta( $user->ID, 'chapar_mobile', true ),
		(bool) get_user_meta( $user->ID, 'chapar_mobile_verified', true )
	);
}
add_action( 'show_user_profile', 'chapar_sms_profile_section' );
add_action( 'edit_user_profile', 'chapar_sms_profile_section' );

add_action(
	'user_profile_update_errors',
	static function ( $errors, $update, $user ) {
		$msg = chapar_sms_mobile_error( chapar_sms_posted_mobile(), false, $update ? (int) $user->ID : 0 );
		if ( '' !== $msg ) {
			$errors->add( 'chapar_mobile', esc_html( $msg ), array( 'form-field' => 'chapar_mobile' ) );
		}
	},
	10,
	3
);

/**
 * Saves the profile's mobile when it is valid; a changed number is no longer verified.
 *
 * @param int $user_id The user edited.
 */
function chapar_sms_profile_save( $user_id ) {
	if ( ! current_user_can( 'edit_user', $user_id ) || '' !== chapar_sms_mobile_error( chapar_sms_posted_mobile(), false, $user_id ) ) {
		return;
	}
	$mobile = chapar_sms_normalize_mobile( chapar_sms_posted_mobile() );
	if ( get_user_meta( $user_id, 'chapar_mobile', true ) === $mobile ) {
		return;
	}
	delete_user_meta( $user_id, 'chapar_mobile_verified' );
	if ( '' === $mobile ) {
		delete_user_meta( $user_id, 'chapar_mobile' );
		return;
	}
	update_user_meta( $user_id, 'chapar_mobile', $mobile );
}
add_action( 'personal_options_update', 'chapar_sms_profile_save' );
add_action( 'edit_user_profile_update', 'chapar_sms_profile_save' );
