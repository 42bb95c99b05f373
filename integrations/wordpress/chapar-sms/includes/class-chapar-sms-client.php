<?php
/**
 * The Chapar API client: every call goes through wp_remote_request with the API key
 * in the `apikey` header, and the JSON envelope ({data, meta}) is unwrapped here.
 *
 * @package ChaparSMS
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Calls the Chapar API (routes under /v1/api) with one account's API key.
 */
class Chapar_SMS_Client {

	/**
	 * The generic message of the panel's display rule (a 500, or no message at all).
	 */
	const GENERIC_ERROR = 'خطا در ارسال اطلاعات';

	/**
	 * The API's address, e.g. https://sms.example.ir (without /v1/api).
	 *
	 * @var string
	 */
	private $base;

	/**
	 * The API key (chp_live_…).
	 *
	 * @var string
	 */
	private $key;

	/**
	 * A client for one address and key.
	 *
	 * @param string $base_url The API's address (a trailing /v1/api is accepted).
	 * @param string $api_key  The API key.
	 */
	public function __construct( $base_url, $api_key ) {
		$this->base = self::normalize_base( $base_url );
		$this->key  = trim( (string) $api_key );
	}

	/**
	 * The client of the saved settings.
	 *
	 * @return Chapar_SMS_Client
	 */
	public static function from_settings() {
		return new self( chapar_sms_option( 'base_url' ), chapar_sms_option( 'api_key' ) );
	}

	/**
	 * The address without trailing slashes or /v1/api.
	 *
	 * @param string $url What the administrator typed.
	 * @return string
	 */
	public static function normalize_base( $url ) {
		$url = untrailingslashit( trim( (string) $url ) );
		return preg_replace( '#/v1/api$#', '', $url );
	}

	/**
	 * Whether an address and a key are set.
	 *
	 * @return bool
	 */
	public function configured() {
		return '' !== $this->base && '' !== $this->key;
	}

	/**
	 * POST /send: a quick send of one text to one number.
	 *
	 * @param string $mobile 09… number.
	 * @param string $text   The message.
	 * @param string $line   The sending line ('' for the account's default line).
	 * @param string $idem   An Idempotency-Key ('' for none).
	 * @return array|WP_Error The accepted send ({id, status, price, sender, cancel11}).
	 */
	public function send_quick( $mobile, $text, $line = '', $idem = '' ) {
		$body = array(
			'type'    => 'quick',
			'text'    => (string) $text,
			'numbers' => array( (string) $mobile ),
		);
		if ( '' !== (string) $line ) {
			$body['sender'] = (string) $line;
		}
		return $this->request( 'POST', '/send', $body, $idem );
	}

	/**
	 * POST /patterns/send: an approved pattern to one number with its values. No line
	 * is named: Chapar sends one-time codes from the account's service line.
	 *
	 * @param string $mobile 09… number.
	 * @param string $code   The pattern's code.
	 * @param array  $values The variables' values, by name.
	 * @param string $idem   An Idempotency-Key ('' for none).
	 * @return array|WP_Error The accepted send.
	 */
	public function send_pattern( $mobile, $code, array $values, $idem = '' ) {
		$body = array(
			'code'      => (string) $code,
			'recipient' => (string) $mobile,
			'values'    => (object) $values,
		);
		return $this->request( 'POST', '/patterns/send', $body, $idem );
	}

	/**
	 * GET /number/numbers: the account's lines, the default first.
	 *
	 * @return array|WP_Error [{id, number, kind, is_default}, …].
	 */
	public function lines() {
		return $this->request( 'GET', '/number/numbers' );
	}

	/**
	 * GET /payment/credit/mine: the credit in rials.
	 *
	 * @return int|WP_Error
	 */
	public function credit() {
		$data = $this->request( 'GET', '/payment/credit/mine' );
		if ( is_wp_error( $data ) ) {
			return $data;
		}
		return isset( $data['credit'] ) ? (int) $data['credit'] : 0;
	}

	/**
	 * One call: the envelope's data on success, a WP_Error with the Persian message
	 * of the envelope (its field errors first) otherwise.
	 *
	 * @param string     $method GET or POST.
	 * @param string     $path   The route under /v1/api.
	 * @param array|null $body   The JSON body.
	 * @param string     $idem   An Idempotency-Key ('' for none).
	 * @return mixed|WP_Error
	 */
	public function request( $method, $path, $body = null, $idem = '' ) {
		if ( ! $this->configured() ) {
			return new WP_Error( 'chapar_not_configured', __( 'نشانی سامانه و کلید API پیامک چاپار هنوز در تنظیمات وارد نشده است.', 'chapar-sms' ) );
		}
		$args = array(
			'method'  => $method,
			'timeout' => (int) apply_filters( 'chapar_sms_timeout', 15 ),
			'headers' => array(
				'apikey' => $this->key,
				'Accept' => 'application/json',
			),
		);
		if ( null !== $body ) {
			$args['headers']['Content-Type'] = 'application/json';
			$args['body']                    = wp_json_encode( $body );
		}
		if ( '' !== $idem ) {
			$args['headers']['Idempotency-Key'] = $idem;
		}
		$res = wp_remote_request( $this->base . '/v1/api' . $path, $args );
		if ( is_wp_error( $res ) ) {
			/* translators: %s: the transport's error. */
			return new WP_Error( 'chapar_http', sprintf( __( 'ارتباط با سامانه پیامک برقرار نشد: %s', 'chapar-sms' ), $res->get_error_message() ) );
		}
		return self::unwrap( wp_remote_retrieve_response_code( $res ), wp_remote_retrieve_body( $res ) );
	}

	/**
	 * The envelope's data for a 2xx answer, or its error.
	 *
	 * @param int    $status The HTTP status.
	 * @param string $raw    The body.
	 * @return mixed|WP_Error
	 */
	public static function unwrap( $status, $raw ) {
		$json = json_decode( (string) $raw, true );
		if ( ! is_array( $json ) || ! array_key_exists( 'meta', $json ) ) {
			/* translators: %d: the HTTP status. */
			return new WP_Error( 'chapar_response', sprintf( __( 'پاسخ سامانه پیامک قابل خواندن نبود (وضعیت %d). نشانی سامانه را بررسی کنید.', 'chapar-sms' ), $status ), array( 'status' => $status ) );
		}
		$meta = is_array( $json['meta'] ) ? $json['meta'] : array();
		if ( $status >= 200 && $status < 300 ) {
			return isset( $json['data'] ) ? $json['data'] : null;
		}
		return new WP_Error(
			'chapar_api',
			self::error_message( $status, $meta ),
			array(
				'status'       => $status,
				'message_code' => isset( $meta['message_code'] ) ? $meta['message_code'] : '',
				'errors'       => isset( $meta['errors'] ) ? $meta['errors'] : array(),
			)
		);
	}

	/**
	 * The panel's display rule: a 500 is the generic message; otherwise the distinct
	 * field errors, one a line; else the envelope's message; else the generic one.
	 *
	 * @param int   $status The HTTP status.
	 * @param array $meta   The envelope's meta.
	 * @return string
	 */
	public static function error_message( $status, array $meta ) {
		if ( $status >= 500 ) {
			return self::GENERIC_ERROR;
		}
		$lines = array();
		if ( ! empty( $meta['errors'] ) && is_array( $meta['errors'] ) ) {
			foreach ( $meta['errors'] as $list ) {
				foreach ( (array) $list as $msg ) {
					$lines[] = (string) $msg;
				}
			}
		}
		$lines = array_values( array_unique( array_filter( $lines ) ) );
		if ( $lines ) {
			return implode( "\n", $lines );
		}
		return ! empty( $meta['message'] ) ? (string) $meta['message'] : self::GENERIC_ERROR;
	}
}
