#include "mcp/failure.hpp"

#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

namespace lcg::mcp {

std::string error_response(boost::json::value const& id, failure const& f)
{
    boost::json::object error{{"code", static_cast<int>(f.code)}, {"message", f.message}};
    if (!f.data.is_null())
        error["data"] = f.data;
    return boost::json::serialize(
        boost::json::object{{"jsonrpc", "2.0"}, {"id", id}, {"error", std::move(error)}});
}

}
