<?php
/**
 * Removes the plugin's settings when it is deleted from the plugins screen. The
 * users' mobiles (chapar_mobile, chapar_mobile_verified) stay: they belong to the users.
 *
 * @package ChaparSMS
 */

if ( ! defined( 'WP_UNINSTALL_PLUGIN' ) ) {
	exit;
}

delete_option( 'chapar_sms_settings' );
