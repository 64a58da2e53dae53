#pragma once

#include "api/operation.hpp"

#include <boost/json/object.hpp>

namespace lcg::api {

// Completes an OpenAPI 3.1 description (server/http/openapi.json, which holds the routes, the
// responses and the shared components) with what the registry defines: each operation's id,
// summary, description and parameters, and the schema of its document under components/schemas.
// Precondition: every operation's route is in spec.paths with a "get".
void describe_operations(boost::json::object& spec);

}
