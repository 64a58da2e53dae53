// The documents that describe the service ("/", llms.txt, the OpenAPI description) and the two ways
// every resource is served in its negotiated format: pre-rendered, or computed per request.
#include "server/http/handlers.hpp"

#include <boost/json/parse.hpp>

#include <stdexcept>

namespace lcg::http {

response document_at(route_input& in, std::string const& path, std::string_view query, bool named_by_alias)
{
    auto lang = in.lang;
    auto doc = in.snap().find_document(path, in.format, render::language_query(query, lang));
    if (!doc && lang != locale::language::en) {
        lang = locale::language::en;
        doc = in.snap().find_document(path, in.format, query);
    }
    if (!doc)
        return problem(in.req, beast_http::status::not_found,
                       in.lang == locale::language::fr
                           ? "rien n’est publié à " + render::url_in(path, in.format, query)
                           : "nothing is published at " + render::url_in(path, in.format, query),
                       {}, in.lang);
    auto res =
        serve_document(in.req, doc, doc->immutable && !named_by_alias ? immutable_cache_control : shared_cache_control);
    if (doc->translated)
        res.set(beast_http::field::content_language, locale::to_string(lang));
    res.body().mark_published();
    return res;
}

response serve_computed(route_input& in, render::view const& v, boost::json::object const& doc,
                        std::optional<pricing::instant> last_modified)
{
    render::page where{std::string(in.path), std::string(in.query_string), in.formats, in.lang};
    where.form = in.form;
    auto res = serve_body(in.req, in.format, render::write(in.format, v, doc, where), last_modified);
    res.set(beast_http::field::content_language, locale::to_string(in.lang));
    return res;
}

response serve_computed(route_input& in, render::view const& v, std::string json_text,
                        std::optional<pricing::instant> last_modified)
{
    if (in.format == render::format::json)
        return serve_body(in.req, in.format, std::move(json_text), last_modified);
    return serve_computed(in, v, boost::json::parse(json_text).as_object(), last_modified);
}

response published_document(route_input& in, std::string_view name)
{
    if (!in.kind)
        throw std::logic_error(std::string(in.path) + ": its route serves no published document");
    return document_at(in, render::path_of(*in.kind, name));
}

response handle_index(route_input& in) { return published_document(in); }
// Also at /.well-known/, where some agents look first.
response handle_llms_txt(route_input& in) { return document_at(in, render::path_of(render::resource::llms_txt)); }
response handle_llms_full_txt(route_input& in) { return document_at(in, render::path_of(render::resource::llms_full_txt)); }
response handle_openapi(route_input& in) { return published_document(in); }
response handle_api_catalog(route_input& in) { return published_document(in); }

}
