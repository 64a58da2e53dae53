#pragma once

#include "api/data_view.hpp"
#include "mcp/failure.hpp"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <string_view>

// The prompts (choose_gpu, estimate_training_run, explain_pricing) and argument completion for
// them and for the resource templates.
namespace lcg::mcp {

boost::json::array const& prompt_list();

// The GetPromptResult of `name` (description and messages), or -32602 for an unknown prompt or a
// missing or malformed argument.
result_or_failure<boost::json::object> get_prompt(std::string_view name, boost::json::object const* arguments,
                                                  api::data_view const& data);

// The CompleteResult's "completion" for params {ref, argument}: GPU ids, tiers, languages,
// glossary slugs or weeks that start with (then contain) the value typed, case ignored, at most 100.
// An argument that a known prompt or resource does not take completes to nothing. -32602 when
// params are malformed or name a prompt, resource or resource template this server does not have.
result_or_failure<boost::json::object> complete(boost::json::object const& params, api::data_view const& data);

}
