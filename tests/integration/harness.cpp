#include "harness.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/write.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <pqxx/pqxx>

#include <atomic>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <sys/stat.h>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace lcg::testing {

namespace {

namespace beast = boost::beast;
namespace asio = boost::asio;

std::atomic<int> database_counter{0};

std::string read_file(std::string const& path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::string binary() { return required_env("LCG_BINARY"); }

// Child process with stdin/stdout/stderr redirected to files; returns the pid.
int spawn(std::vector<std::string> const& args, std::string const& in, std::string const& out, std::string const& err,
          std::vector<std::string> const& env_extra = {})
{
    int const pid = fork();
    if (pid == 0) {
        int fin = open(in.c_str(), O_RDONLY);
        int fout = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int ferr = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        dup2(fin, 0);
        dup2(fout, 1);
        dup2(ferr, 2);
        for (auto const& kv : env_extra) {
            if (kv.find('=') == std::string::npos)
                unsetenv(kv.c_str());  // a bare name: the child must not see it
            else
                putenv(const_cast<char*>(kv.c_str()));
        }
        std::vector<char*> argv;
        for (auto const& a : args)
            argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        execv(argv[0], argv.data());
        _exit(127);
    }
    return pid;
}

}

std::string scratch_path(std::string const& what)
{
    static std::atomic<int> n{0};
    return "/tmp/lcg-it-" + std::to_string(getpid()) + "-" + std::to_string(n++) + "-" + what;
}

pricing::iso_week current_week()
{
    auto const now = std::chrono::time_point_cast<std::chrono::seconds>(std::chrono::system_clock::now());
    return pricing::week_containing(now);
}

std::string this_week() { return pricing::to_string(current_week()); }

std::string required_env(char const* name)
{
    char const* v = std::getenv(name);
    if (!v || !*v)
        throw std::runtime_error(std::string(name) +
                                 " is not set: integration tests need a PostgreSQL and the built binary; "
                                 "run them with deploy/test, which starts both");
    return v;
}

test_database::test_database()
    : name_("lcg_it_" + std::to_string(getpid()) + "_" + std::to_string(database_counter++))
{
    pqxx::connection c(admin_url());
    pqxx::nontransaction tx(c);
    tx.exec("CREATE DATABASE " + name_ + " TEMPLATE " + required_env("LCG_TEST_TEMPLATE") +
            " OWNER lowcostgpu_owner");
}

test_database::~test_database()
{
    try {
        pqxx::connection c(admin_url());
        pqxx::nontransaction tx(c);
        tx.exec("DROP DATABASE IF EXISTS " + name_ + " WITH (FORCE)");
    } catch (std::exception const&) {
        // A leftover database disappears with the throwaway cluster.
    }
}

std::string test_database::url(std::string const& role) const
{
    return "postgresql://lowcostgpu_" + role + "@127.0.0.1:" + required_env("LCG_TEST_PG_PORT") + "/" + name_;
}

std::string test_database::admin_url() const { return required_env("LCG_TEST_ADMIN_URL"); }

long test_database::count(std::string const& table) const
{
    pqxx::connection c(url("owner"));
    pqxx::read_transaction tx(c);
    return tx.exec1("SELECT count(*) FROM " + table)[0].as<long>();
}

void test_database::exec(std::string const& sql) const
{
    pqxx::connection c(url("owner"));
    pqxx::work tx(c);
    tx.exec(sql);
    tx.commit();
}

command_result run_lowcostgpu(std::vector<std::string> const& args, std::string const& input)
{
    std::string const in = scratch_path("in"), out = scratch_path("out"), err = scratch_path("err");
    std::ofstream(in, std::ios::binary) << input;
    std::vector<std::string> argv{binary()};
    argv.insert(argv.end(), args.begin(), args.end());
    int const pid = spawn(argv, in, out, err);
    int status = 0;
    waitpid(pid, &status, 0);
    command_result r{WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), read_file(out), read_file(err)};
    unlink(in.c_str());
    unlink(out.c_str());
    unlink(err.c_str());
    return r;
}

std::string http_reply::header(std::string const& name) const
{
    auto it = headers.find(name);
    return it == headers.end() ? "" : it->second;
}

http_reply http_request(unsigned short port, std::string const& method, std::string const& target,
                        std::map<std::string, std::string> const& headers, std::string const& body)
{
    asio::io_context ioc;
    beast::tcp_stream stream(ioc);
    stream.expires_after(std::chrono::seconds(10));
    stream.connect(asio::ip::tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
    beast::http::request<beast::http::string_body> req{beast::http::string_to_verb(method), target, 11};
    req.set(beast::http::field::host, "127.0.0.1:" + std::to_string(port));
    for (auto const& [k, v] : headers)
        req.set(k, v);
    if (!body.empty() || method == "POST") {
        req.body() = body;
        req.prepare_payload();
    }
    beast::http::write(stream, req);
    beast::flat_buffer buffer;
    beast::http::response_parser<beast::http::string_body> parser;
    parser.body_limit(64 * 1024 * 1024);
    if (method == "HEAD")
        parser.skip(true);
    beast::http::read(stream, buffer, parser);
    auto const& res = parser.get();
    http_reply reply;
    reply.status = static_cast<int>(res.result_int());
    for (auto const& f : res) {
        std::string name(f.name_string());
        for (auto& ch : name)
            ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        reply.headers[name] = std::string(f.value());
    }
    reply.body = res.body();
    beast::error_code ec;
    stream.socket().shutdown(asio::ip::tcp::socket::shutdown_both, ec);
    return reply;
}

server_process::server_process(std::string const& database_url, std::vector<std::string> const& extra_args,
                               bool wait_until_ready)
    : server_process(
          [&] {
              serve_arguments a{{"--database-url", database_url}};
              a.args.insert(a.args.end(), extra_args.begin(), extra_args.end());
              return a;
          }(),
          wait_until_ready)
{
}

server_process::server_process(serve_arguments const& arguments, bool wait_until_ready)
{
    std::string const out = scratch_path("serve-out"), err = scratch_path("serve-err");
    out_path_ = out;
    // A file left by an earlier process with the same pid would name its port until the child truncates it.
    unlink(out.c_str());
    unlink(err.c_str());
    std::vector<std::string> argv{binary(), "serve", "--listen", "127.0.0.1:0"};
    argv.insert(argv.end(), arguments.args.begin(), arguments.args.end());
    pid_ = spawn(argv, "/dev/null", out, err, {"DATABASE_URL"});
    // The first line names the bound port: "listening on http://127.0.0.1:PORT".
    bool const listening = eventually(
        [&] {
            auto const text = read_file(out);
            auto const at = text.find("listening on http://127.0.0.1:");
            auto const eol = text.find('\n', at);
            if (at == std::string::npos || eol == std::string::npos)
                return false;
            port_ = static_cast<unsigned short>(std::stoi(text.substr(at + 30, eol - at - 30)));
            return true;
        },
        std::chrono::seconds(10));
    // A constructor that throws runs no destructor: the child is stopped here, or it outlives the test.
    auto give_up = [&](std::string const& why) {
        std::string const message = why + read_file(out) + read_file(err);
        terminate_within(std::chrono::seconds(2));
        throw std::runtime_error(message);
    };
    if (!listening)
        give_up("lowcostgpu serve did not start: ");
    if (wait_until_ready && !eventually([&] { return get("/readyz").status == 200; }, std::chrono::seconds(10)))
        give_up("lowcostgpu serve never became ready: ");
}

server_process::~server_process()
{
    if (pid_ > 0)
        terminate();
}

http_reply server_process::get(std::string const& target, std::map<std::string, std::string> const& headers) const
{
    return http_request(port_, "GET", target, headers);
}

std::string server_process::output() const { return read_file(out_path_); }

long server_process::metric(std::string const& name) const
{
    auto const text = get("/metrics").body;
    auto const at = text.find("\n" + name + " ");
    return at == std::string::npos ? -1 : std::stol(text.substr(at + name.size() + 2));
}

std::optional<int> server_process::terminate_within(std::chrono::milliseconds limit)
{
    kill(pid_, SIGTERM);
    int status = 0;
    bool const ended = eventually([&] { return waitpid(pid_, &status, WNOHANG) == pid_; }, limit);
    if (!ended) {
        kill(pid_, SIGKILL);
        waitpid(pid_, &status, 0);
    }
    pid_ = -1;
    if (!ended)
        return std::nullopt;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int server_process::terminate()
{
    kill(pid_, SIGTERM);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}

namespace lcg::testing {

stdio_process::stdio_process(std::vector<std::string> const& args, std::vector<std::string> const& unset_env)
    : fifo_path_(scratch_path("stdin")), out_path_(scratch_path("stdout"))
{
    std::signal(SIGPIPE, SIG_IGN);  // a child that died makes send() throw, not kill the tests
    if (mkfifo(fifo_path_.c_str(), 0600) != 0)
        throw std::runtime_error("cannot create a fifo at " + fifo_path_);
    std::vector<std::string> argv{binary()};
    argv.insert(argv.end(), args.begin(), args.end());
    pid_ = spawn(argv, fifo_path_, out_path_, "/dev/null", unset_env);
    input_ = open(fifo_path_.c_str(), O_WRONLY);  // returns once the child has opened its end
}

stdio_process::~stdio_process()
{
    if (input_ >= 0)
        close(input_);
    int status = 0;
    waitpid(pid_, &status, 0);
    unlink(fifo_path_.c_str());
}

void stdio_process::send(std::string const& line)
{
    std::string const message = line + "\n";
    if (write(input_, message.data(), message.size()) != static_cast<ssize_t>(message.size()))
        throw std::runtime_error("cannot write to the child's standard input");
}

std::string stdio_process::output() const { return read_file(out_path_); }

background_command::background_command(std::vector<std::string> const& args)
{
    std::vector<std::string> argv{binary()};
    argv.insert(argv.end(), args.begin(), args.end());
    pid_ = spawn(argv, "/dev/null", "/dev/null", "/dev/null");
}

background_command::~background_command()
{
    if (pid_ > 0)
        kill_now();
}

void background_command::kill_now()
{
    kill(pid_, SIGKILL);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
}

}

namespace lcg::testing {

struct fake_upstream::impl {
    explicit impl(handler h) : answer(std::move(h)), acceptor(ioc, {asio::ip::make_address("127.0.0.1"), 0})
    {
        accept();
        thread = std::thread([this] { ioc.run(); });
    }

    ~impl()
    {
        ioc.stop();
        thread.join();
    }

    void accept()
    {
        acceptor.async_accept([this](beast::error_code ec, asio::ip::tcp::socket socket) {
            if (ec)
                return;
            serve(std::move(socket));
            accept();
        });
    }

    // One request per connection, handled synchronously: the tests' clients send theirs at once.
    void serve(asio::ip::tcp::socket socket)
    {
        beast::flat_buffer buffer;
        beast::http::request<beast::http::string_body> req;
        beast::error_code ec;
        beast::http::read(socket, buffer, req, ec);
        if (ec)
            return;
        std::map<std::string, std::string> headers;
        for (auto const& f : req) {
            std::string name(f.name_string());
            for (auto& ch : name)
                ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
            headers[name] = std::string(f.value());
        }
        auto const reply = answer(std::string(req.target()), headers);
        if (!reply) {
            stalled.push_back(std::move(socket));
            return;
        }
        asio::write(socket, asio::buffer(*reply), ec);
        socket.shutdown(asio::ip::tcp::socket::shutdown_both, ec);
    }

    handler answer;
    asio::io_context ioc;
    asio::ip::tcp::acceptor acceptor;
    std::vector<asio::ip::tcp::socket> stalled;
    std::thread thread;
};

fake_upstream::fake_upstream(handler answer) : impl_(std::make_unique<impl>(std::move(answer))) {}

fake_upstream::~fake_upstream() = default;

unsigned short fake_upstream::port() const { return impl_->acceptor.local_endpoint().port(); }

std::string fake_upstream::url() const { return "http://127.0.0.1:" + std::to_string(port()); }

std::string raw_response(int status, std::string const& body, std::vector<std::string> const& headers)
{
    std::string out = "HTTP/1.1 " + std::to_string(status) + " X\r\nContent-Length: " + std::to_string(body.size()) +
                      "\r\nConnection: close\r\n";
    for (auto const& h : headers)
        out += h + "\r\n";
    return out + "\r\n" + body;
}

fake_upstream editing_proxy(server_process const& origin,
                            std::function<void(std::string const& target, std::string& body)> edit)
{
    return fake_upstream([&origin, edit = std::move(edit)](std::string const& target,
                                                           std::map<std::string, std::string> const&) {
        auto const reply = origin.get(target);
        std::string body = reply.body;
        edit(target, body);
        std::vector<std::string> headers;
        if (!reply.header("content-type").empty())
            headers.push_back("Content-Type: " + reply.header("content-type"));
        return std::optional<std::string>(raw_response(reply.status, body, headers));
    });
}

shell_result run_shell(std::string const& command)
{
    shell_result r;
    std::FILE* p = popen(command.c_str(), "r");
    if (!p)
        return r;
    char buf[4096];
    while (std::size_t n = std::fread(buf, 1, sizeof buf, p))
        r.out.append(buf, n);
    r.status = pclose(p);
    return r;
}

std::string shared_dir()
{
    if (char const* dir = std::getenv("LCG_SHARED_DIR"); dir && *dir)
        return dir;
    return std::string(LCG_SOURCE_DIR) + "/../shared";
}

std::string market_catalog_dir() { return shared_dir() + "/data/market/skypilot/catalogs/v8"; }

}
