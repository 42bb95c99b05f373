<?php
/**
 * Settings → «پیامک چاپار»: the API's address, the API key (shown masked once
 * saved), the sending line (a select of the account's lines, read through the API),
 * the OTP pattern, the message texts, and «ارسال آزمایشی».
 *
 * @package ChaparSMS
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

add_action(
	'admin_menu',
	static function () {
		add_options_page( __( 'پیامک چاپار', 'chapar-sms' ), __( 'پیامک چاپار', 'chapar-sms' ), 'manage_options', 'chapar-sms', 'chapar_sms_settings_page' );
	}
);

add_action(
	'admin_init',
	static function () {
		register_setting( 'chapar_sms', CHAPAR_SMS_OPTION, array( 'sanitize_callback' => 'chapar_sms_sanitize' ) );
	}
);

add_filter(
	'plugin_action_links_' . plugin_basename( CHAPAR_SMS_FILE ),
	static function ( $links ) {
		array_unshift( $links, '<a href="' . esc_url( admin_url( 'options-general.php?page=chapar-sms' ) ) . '">' . esc_html__( 'تنظیمات', 'chapar-sms' ) . '</a>' );
		return $links;
	}
);

/**
 * Checks and cleans the posted settings; a field that fails keeps its saved value and
 * says why. An empty API key keeps the saved key.
 *
 * @param array $in The posted settings.
 * @return array
 */
function chapar_sms_sanitize( $in ) {
	$old = chapar_sms_option();
	$in  = is_array( $in ) ? $in : array();
	$out = $old;
	$url = isset( $in['base_url'] ) ? trim( (string) $in['base_url'] ) : '';
	if ( '' === $url || wp_http_validate_url( $url ) || preg_match( '#^https?://[^/\s]+(/.*)?$#', $url ) ) {
		$out['base_url'] = Chapar_SMS_Client::normalize_base( esc_url_raw( $url, array( 'http', 'https' ) ) );
	} else {
		chapar_sms_field_error( 'base_url', __( 'نشانی سامانه باید با http:// یا https:// شروع شود.', 'chapar-sms' ) );
	}
	$key = isset( $in['api_key'] ) ? trim( sanitize_text_field( (string) $in['api_key'] ) ) : '';
	if ( '' !== $key ) {
		$out['api_key'] = $key;
	}
	$line = isset( $in['line'] ) ? preg_replace( '/\s/', '', chapar_sms_latin_digits( (string) $in['line'] ) ) : '';
	if ( '' === $line || preg_match( '/^\d{3,20}$/', $line ) ) {
		$out['line'] = $line;
	} else {
		chapar_sms_field_error( 'line', __( 'خط ارسال فقط رقم است (۳ تا ۲۰ رقم)، مانند 300012345.', 'chapar-sms' ) );
	}
	$out = chapar_sms_sanitize_otp( $in, $out );
	foreach ( array( 'welcome', 'reset', 'reset_done' ) as $msg ) {
		$out[ $msg . '_on' ] = empty( $in[ $msg . '_on' ] ) ? 0 : 1;
		if ( isset( $in[ $msg . '_text' ] ) && '' !== trim( (string) $in[ $msg . '_text' ] ) ) {
			$out[ $msg . '_text' ] = sanitize_textarea_field( (string) $in[ $msg . '_text' ] );
		}
	}
	return $out;
}

/**
 * The OTP pattern's code and variable name, checked.
 *
 * @param array $in  The posted settings.
 * @param array $out The settings being saved.
 * @return array
 */
function chapar_sms_sanitize_otp( $in, $out ) {
	$code = isset( $in['otp_pattern'] ) ? trim( (string) $in['otp_pattern'] ) : '';
	if ( '' === $code || preg_match( '/^[A-Za-z0-9_\-]{1,64}$/', $code ) ) {
		$out['otp_pattern'] = $code;
	} else {
		chapar_sms_field_error( 'otp_pattern', __( 'کد الگو فقط حروف و ارقام لاتین و خط تیره است؛ آن را از صفحه الگوهای پنل چاپار بردارید.', 'chapar-sms' ) );
	}
	$var = isset( $in['otp_variable'] ) ? trim( (string) $in['otp_variable'] ) : '';
	if ( preg_match( '/^[A-Za-z][A-Za-z0-9_]{0,63}$/', $var ) ) {
		$out['otp_variable'] = $var;
	} else {
		chapar_sms_field_error( 'otp_variable', __( 'نام متغیر کد در الگو با یک حرف لاتین شروع می‌شود، مانند code.', 'chapar-sms' ) );
	}
	return $out;
}

/**
 * A settings error shown above the form after saving.
 *
 * @param string $field The setting.
 * @param string $msg   The Persian message.
 */
function chapar_sms_field_error( $field, $msg ) {
	add_settings_error( CHAPAR_SMS_OPTION, 'chapar_sms_' . $field, $msg );
}

/**
 * The key shown after saving: its visible prefix and last four characters.
 *
 * @param string $key The API key.
 * @return string
 */
function chapar_sms_mask_key( $key ) {
	if ( '' === $key ) {
		return '';
	}
	$parts  = explode( '_', $key );
	$prefix = count( $parts ) >= 4 ? implode( '_', array_slice( $parts, 0, 3 ) ) . '_' : substr( $key, 0, 4 );
	return $prefix . str_repeat( '•', 8 ) . substr( $key, -4 );
}

/**
 * The account's lines through the API, cached for five minutes per address and key.
 *
 * @return array|WP_Error
 */
function chapar_sms_lines() {
	$client = Chapar_SMS_Client::from_settings();
	$cache  = 'chapar_sms_lines_' . md5( chapar_sms_option( 'base_url' ) . '|' . chapar_sms_option( 'api_key' ) );
	$lines  = get_transient( $cache );
	if ( is_array( $lines ) ) {
		return $lines;
	}
	$lines = $client->lines();
	if ( ! is_wp_error( $lines ) ) {
		set_transient( $cache, (array) $lines, 5 * MINUTE_IN_SECONDS );
	}
	return $lines;
}

/**
 * The settings page.
 */
function chapar_sms_settings_page() {
	if ( ! current_user_can( 'manage_options' ) ) {
		return;
	}
	$o      = chapar_sms_option();
	$client = Chapar_SMS_Client::from_settings();
	?>
	<div class="wrap chapar-sms-settings">
		<h1><?php esc_html_e( 'پیامک چاپار', 'chapar-sms' ); ?></h1>
		<?php chapar_sms_test_notice(); ?>
		<?php if ( $client->configured() ) : ?>
			<?php chapar_sms_credit_notice( $client ); ?>
		<?php endif; ?>
		<form method="post" action="options.php" id="chapar-sms-settings">
			<?php settings_fields( 'chapar_sms' ); ?>
			<table class="form-table" role="presentation">
				<?php chapar_sms_connection_rows( $o, $client ); ?>
				<?php chapar_sms_message_rows( $o ); ?>
			</table>
			<?php submit_button( __( 'ذخیره تنظیمات', 'chapar-sms' ), 'primary', 'submit', true, array( 'id' => 'chapar-sms-save' ) ); ?>
		</form>
		<?php chapar_sms_test_form(); ?>
	</div>
	<?php
}

/**
 * The credit of the account, or why it could not be read.
 *
 * @param Chapar_SMS_Client $client The client of the settings.
 */
function chapar_sms_credit_notice( $client ) {
	$credit = $client->credit();
	if ( is_wp_error( $credit ) ) {
		/* translators: %s: the API's message. */
		$text = sprintf( __( 'اعتبار حساب خوانده نشد: %s', 'chapar-sms' ), $credit->get_error_message() );
		echo '<div class="notice notice-warning inline" id="chapar-sms-credit"><p style="white-space:pre-line">' . esc_html( $text ) . '</p></div>';
		return;
	}
	/* translators: %s: the credit in rials. */
	$text = sprintf( __( 'اعتبار حساب چاپار: %s ریال', 'chapar-sms' ), number_format_i18n( $credit ) );
	echo '<div class="notice notice-info inline" id="chapar-sms-credit"><p>' . esc_html( $text ) . '</p></div>';
}

/**
 * The address, key, line and pattern rows.
 *
 * @param array             $o      The settings.
 * @param Chapar_SMS_Client $client The client of the settings.
 */
function chapar_sms_connection_rows( $o, $client ) {
	$name = CHAPAR_SMS_OPTION;
	?>
	<tr>
		<th scope="row"><label for="chapar-base-url"><?php esc_html_e( 'نشانی سامانه (API)', 'chapar-sms' ); ?></label></th>
		<td>
			<?php chapar_sms_ltr_input( 'url', 'base_url', $o, 'regular-text', 'https://sms.example.ir' ); ?>
			<p class="description"><?php esc_html_e( 'نشانی پنل چاپار؛ مسیرهای API زیر /v1/api آن هستند.', 'chapar-sms' ); ?></p>
		</td>
	</tr>
	<tr>
		<th scope="row"><label for="chapar-api-key"><?php esc_html_e( 'کلید API', 'chapar-sms' ); ?></label></th>
		<td>
			<input type="password" id="chapar-api-key" name="<?php echo esc_attr( $name ); ?>[api_key]" class="regular-text" dir="ltr" autocomplete="off"
				value="" placeholder="<?php echo esc_attr( '' !== $o['api_key'] ? chapar_sms_mask_key( $o['api_key'] ) : 'chp_live_…' ); ?>" />
			<?php if ( '' !== $o['api_key'] ) : ?>
				<p class="description" id="chapar-api-key-saved">
					<?php esc_html_e( 'کلید ذخیره شده:', 'chapar-sms' ); ?> <code dir="ltr"><?php echo esc_html( chapar_sms_mask_key( $o['api_key'] ) ); ?></code>
					— <?php esc_html_e( 'برای تغییر، کلید تازه را وارد کنید؛ خالی بماند، همان کلید می‌ماند.', 'chapar-sms' ); ?>
				</p>
			<?php else : ?>
				<p class="description"><?php esc_html_e( 'در پنل چاپار، صفحه «کلیدهای API»، کلیدی با دسترسی «ارسال پیامک»، «مشاهده خطوط» و «مشاهده کیف پول» بسازید.', 'chapar-sms' ); ?></p>
			<?php endif; ?>
		</td>
	</tr>
	<tr>
		<th scope="row"><label for="chapar-line"><?php esc_html_e( 'خط ارسال', 'chapar-sms' ); ?></label></th>
		<td><?php chapar_sms_line_field( $o, $client ); ?></td>
	</tr>
	<tr>
		<th scope="row"><label for="chapar-otp-pattern"><?php esc_html_e( 'کد الگوی پیامک تأیید (OTP)', 'chapar-sms' ); ?></label></th>
		<td>
			<?php chapar_sms_ltr_input( 'text', 'otp_pattern', $o, 'regular-text', 'rs88w7w399pp' ); ?>
			<label for="chapar-otp-variable"><?php esc_html_e( 'نام متغیر کد:', 'chapar-sms' ); ?></label>
			<?php chapar_sms_ltr_input( 'text', 'otp_variable', $o, 'small-text', '' ); ?>
			<p class="description"><?php esc_html_e( 'الگویی از نوع «رمز یکبار مصرف» که در پنل چاپار تأیید شده است، با متغیری مانند %code%. کد از خط خدماتی حساب فرستاده می‌شود.', 'chapar-sms' ); ?></p>
		</td>
	</tr>
	<?php
}

/**
 * A left-to-right input of one setting, its id chapar-<setting with dashes>.
 *
 * @param string $type        The input's type.
 * @param string $key         The setting.
 * @param array  $o           The settings.
 * @param string $css         Its class.
 * @param string $placeholder Its placeholder.
 */
function chapar_sms_ltr_input( $type, $key, $o, $css, $placeholder ) {
	printf(
		'<input type="%1$s" id="chapar-%2$s" name="%3$s[%4$s]" class="%5$s" dir="ltr" value="%6$s" placeholder="%7$s" />',
		esc_attr( $type ),
		esc_attr( str_replace( '_', '-', $key ) ),
		esc_attr( CHAPAR_SMS_OPTION ),
		esc_attr( $key ),
		esc_attr( $css ),
		esc_attr( $o[ $key ] ),
		esc_attr( $placeholder )
	);
}

/**
 * The line: a select of the account's lines when the API answers, else a text field.
 *
 * @param array             $o      The settings.
 * @param Chapar_SMS_Client $client The client of the settings.
 */
function chapar_sms_line_field( $o, $client ) {
	$name  = CHAPAR_SMS_OPTION . '[line]';
	$lines = $client->configured() ? chapar_sms_lines() : new WP_Error( 'chapar_not_configured', __( 'پس از ذخیره نشانی و کلید، خطوط حساب اینجا فهرست می‌شوند.', 'chapar-sms' ) );
	if ( is_wp_error( $lines ) || ! $lines ) {
		?>
		<input type="text" id="chapar-line" name="<?php echo esc_attr( $name ); ?>" class="regular-text" dir="ltr" inputmode="numeric" pattern="[0-9۰-۹]{3,20}"
			value="<?php echo esc_attr( $o['line'] ); ?>" placeholder="300012345" />
		<p class="description" id="chapar-line-note" style="white-space:pre-line"><?php echo esc_html( is_wp_error( $lines ) ? $lines->get_error_message() : __( 'خطی برای این حساب نیست.', 'chapar-sms' ) ); ?></p>
		<?php
		return;
	}
	$kinds = array(
		'service'     => __( 'خدماتی', 'chapar-sms' ),
		'advertising' => __( 'تبلیغاتی', 'chapar-sms' ),
	);
	?>
	<select id="chapar-line" name="<?php echo esc_attr( $name ); ?>" dir="rtl">
		<option value=""><?php esc_html_e( 'خط پیش‌فرض حساب', 'chapar-sms' ); ?></option>
		<?php foreach ( $lines as $line ) : ?>
			<?php
			$kind  = isset( $kinds[ $line['kind'] ] ) ? $kinds[ $line['kind'] ] : $line['kind'];
			$label = $line['number'] . ' — ' . $kind . ( ! empty( $line['is_default'] ) ? ' (' . __( 'پیش‌فرض', 'chapar-sms' ) . ')' : '' );
			?>
			<option value="<?php echo esc_attr( $line['number'] ); ?>" <?php selected( $o['line'], $line['number'] ); ?>><?php echo esc_html( $label ); ?></option>
		<?php endforeach; ?>
	</select>
	<p class="description"><?php esc_html_e( 'پیامک‌های خوش‌آمد، بازیابی رمز و افزونه‌های دیگر از این خط می‌روند؛ بر خط تبلیغاتی «لغو۱۱» به متن افزوده می‌شود.', 'chapar-sms' ); ?></p>
	<?php
}

/**
 * The message rows: welcome, reset requested, reset done.
 *
 * @param array $o The settings.
 */
function chapar_sms_message_rows( $o ) {
	$rows = array(
		'welcome'    => __( 'پیامک خوش‌آمد ثبت‌نام', 'chapar-sms' ),
		'reset'      => __( 'پیامک درخواست بازیابی رمز', 'chapar-sms' ),
		'reset_done' => __( 'پیامک تغییر رمز', 'chapar-sms' ),
	);
	foreach ( $rows as $key => $title ) {
		$field = CHAPAR_SMS_OPTION . '[' . $key;
		?>
		<tr>
			<th scope="row"><label for="chapar-<?php echo esc_attr( $key ); ?>-text"><?php echo esc_html( $title ); ?></label></th>
			<td>
				<label><input type="checkbox" name="<?php echo esc_attr( $field . '_on]' ); ?>" value="1" <?php checked( $o[ $key . '_on' ] ); ?> /> <?php esc_html_e( 'فرستاده شود', 'chapar-sms' ); ?></label><br />
				<textarea id="chapar-<?php echo esc_attr( $key ); ?>-text" name="<?php echo esc_attr( $field . '_text]' ); ?>" rows="2" class="large-text"><?php echo esc_textarea( $o[ $key . '_text' ] ); ?></textarea>
			</td>
		</tr>
		<?php
	}
	?>
	<tr><th></th><td><p class="description"><?php echo esc_html__( 'برچسب‌ها:', 'chapar-sms' ) . ' <code>{site_name}</code> <code>{user_login}</code> <code>{display_name}</code>'; ?></p></td></tr>
	<?php
}

/**
 * The «ارسال آزمایشی» form (posted to admin-post.php).
 */
function chapar_sms_test_form() {
	?>
	<h2><?php esc_html_e( 'ارسال آزمایشی', 'chapar-sms' ); ?></h2>
	<form method="post" action="<?php echo esc_url( admin_url( 'admin-post.php' ) ); ?>" id="chapar-sms-test">
		<input type="hidden" name="action" value="chapar_sms_test" />
		<?php wp_nonce_field( 'chapar_sms_test' ); ?>
		<table class="form-table" role="presentation">
			<tr>
				<th scope="row"><label for="chapar-test-mobile"><?php esc_html_e( 'شماره گیرنده', 'chapar-sms' ); ?></label></th>
				<td><input type="tel" id="chapar-test-mobile" name="mobile" class="regular-text" dir="ltr" inputmode="tel" placeholder="09121234567" required /></td>
			</tr>
			<tr>
				<th scope="row"><label for="chapar-test-text"><?php esc_html_e( 'متن پیامک', 'chapar-sms' ); ?></label></th>
				<td><textarea id="chapar-test-text" name="text" rows="2" class="large-text"><?php echo esc_textarea( __( 'پیامک آزمایشی افزونه چاپار', 'chapar-sms' ) ); ?></textarea></td>
			</tr>
		</table>
		<?php submit_button( __( 'ارسال آزمایشی', 'chapar-sms' ), 'secondary', 'chapar-test-send', true, array( 'id' => 'chapar-test-send' ) ); ?>
	</form>
	<?php
}

add_action( 'admin_post_chapar_sms_test', 'chapar_sms_test_handle' );

/**
 * Sends the test SMS, keeps the result for the page, and goes back to it.
 */
function chapar_sms_test_handle() {
	if ( ! current_user_can( 'manage_options' ) ) {
		wp_die( esc_html__( 'دسترسی لازم را ندارید.', 'chapar-sms' ), 403 );
	}
	check_admin_referer( 'chapar_sms_test' );
	$mobile = isset( $_POST['mobile'] ) ? sanitize_text_field( wp_unslash( $_POST['mobile'] ) ) : '';
	$text   = isset( $_POST['text'] ) ? sanitize_textarea_field( wp_unslash( $_POST['text'] ) ) : '';
	$result = chapar_sms_send( $mobile, $text );
	$keep   = is_wp_error( $result ) ? array( 'error' => $result->get_error_message() ) : array( 'ok' => $result );
	set_transient( 'chapar_sms_test_' . get_current_user_id(), $keep, 5 * MINUTE_IN_SECONDS );
	wp_safe_redirect( admin_url( 'options-general.php?page=chapar-sms&chapar-test=1' ) );
	exit;
}

/**
 * The result of the last test send of this user, once.
 */
function chapar_sms_test_notice() {
	$key  = 'chapar_sms_test_' . get_current_user_id();
	$last = get_transient( $key );
	if ( ! is_array( $last ) ) {
		return;
	}
	delete_transient( $key );
	if ( isset( $last['error'] ) ) {
		/* translators: %s: the API's Persian message. */
		$text = sprintf( __( 'ارسال آزمایشی انجام نشد: %s', 'chapar-sms' ), $last['error'] );
		echo '<div class="notice notice-error" id="chapar-test-result"><p style="white-space:pre-line">' . esc_html( $text ) . '</p></div>';
		return;
	}
	$ok = (array) $last['ok'];
	/* translators: 1: send id, 2: line, 3: price in rials. */
	$text = sprintf( __( 'پیامک آزمایشی پذیرفته شد؛ شناسه ارسال: %1$s، خط: %2$s، هزینه: %3$s ریال', 'chapar-sms' ), $ok['id'] ?? '', $ok['sender'] ?? '', number_format_i18n( (int) ( $ok['price'] ?? 0 ) ) );
	echo '<div class="notice notice-success" id="chapar-test-result"><p>' . esc_html( $text ) . '</p></div>';
}
