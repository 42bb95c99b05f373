<?php
/**
 * Plugin Name:       Chapar SMS
 * Plugin URI:        https://github.com/chapar/chapar
 * Description:       پیامک چاپار برای وردپرس: پیامک خوش‌آمد ثبت‌نام و بازیابی رمز، تأیید موبایل با کد یکبارمصرف (الگو)، ارسال آزمایشی و یک کنش برای افزونه‌های دیگر.
 * Version:           1.0.0
 * Requires at least: 6.1
 * Requires PHP:      7.4
 * Author:            Chapar
 * License:           GPL-2.0-or-later
 * License URI:       https://www.gnu.org/licenses/gpl-2.0.html
 * Text Domain:       chapar-sms
 * Domain Path:       /languages
 *
 * @package ChaparSMS
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

define( 'CHAPAR_SMS_VERSION', '1.0.0' );
define( 'CHAPAR_SMS_FILE', __FILE__ );
define( 'CHAPAR_SMS_DIR', plugin_dir_path( __FILE__ ) );

require_once CHAPAR_SMS_DIR . 'includes/mobile.php';
require_once CHAPAR_SMS_DIR . 'includes/options.php';
require_once CHAPAR_SMS_DIR . 'includes/class-chapar-sms-client.php';
require_once CHAPAR_SMS_DIR . 'includes/send.php';
require_once CHAPAR_SMS_DIR . 'includes/users.php';
require_once CHAPAR_SMS_DIR . 'includes/verify.php';

if ( is_admin() ) {
	require_once CHAPAR_SMS_DIR . 'includes/settings-page.php';
}

add_action(
	'init',
	static function () {
		load_plugin_textdomain( 'chapar-sms', false, dirname( plugin_basename( CHAPAR_SMS_FILE ) ) . '/languages' );
	}
);

register_activation_hook( __FILE__, 'chapar_sms_activate' );

/**
 * Stores the default settings on first activation (never overwrites saved ones).
 */
function chapar_sms_activate() {
	add_option( CHAPAR_SMS_OPTION, chapar_sms_defaults(), '', 'no' );
}
