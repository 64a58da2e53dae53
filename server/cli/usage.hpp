#pragma once

// lowcostgpu --help: every command with its flags, the signing key, and the settings' environment.
namespace lcg::cli {

char const* usage_text();

}
