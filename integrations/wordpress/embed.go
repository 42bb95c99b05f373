// Package wordpress embeds the WordPress plugin «پیامک چاپار» (chapar-sms/, PHP) so
// that the API serves it as a zip from the plugins catalogue (docs/wordpress.md).
package wordpress

import (
	"embed"
	"io/fs"
)

// PluginDir is the plugin's folder name, as WordPress installs it under wp-content/plugins.
const PluginDir = "chapar-sms"

//go:embed chapar-sms
var plugin embed.FS

// Plugin returns the plugin's files, rooted above its folder (paths start with chapar-sms/).
func Plugin() fs.FS { return plugin }
