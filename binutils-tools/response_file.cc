// GNU-style @FILE response files.
#include "response_file.h"

#include "file_io.h"
#include "diag.h"

#include <cctype>

namespace memprof {

// Split TEXT like a shell would, without expansions: whitespace separates,
// single and double quotes group, a backslash escapes the next character.
static std::vector<std::string>
split_arguments (const std::string &text)
{
  std::vector<std::string> out;
  std::string cur;
  bool in_arg = false;
  char quote = 0;
  for (size_t i = 0; i < text.size (); i++)
    {
      char c = text[i];
      if (c == '\\' && i + 1 < text.size ())
        {
          cur += text[++i];
          in_arg = true;
        }
      else if (quote)
        {
          if (c == quote)
            quote = 0;
          else
            cur += c;
        }
      else if (c == '\'' || c == '"')
        {
          quote = c;
          in_arg = true;
        }
      else if (std::isspace (static_cast<unsigned char> (c)))
        {
          if (in_arg)
            out.push_back (cur);
          cur.clear ();
          in_arg = false;
        }
      else
        {
          cur += c;
          in_arg = true;
        }
    }
  if (in_arg)
    out.push_back (cur);
  return out;
}

static void
expand_into (const std::string &arg, int depth, std::vector<std::string> &out)
{
  // Depth bounds self-including response files.
  if (arg.size () < 2 || arg[0] != '@' || depth > 16)
    {
      out.push_back (arg);
      return;
    }
  std::vector<uint8_t> bytes;
  try
    {
      bytes = read_whole_file (arg.substr (1));
    }
  catch (const FormatError &)
    {
      out.push_back (arg);
      return;
    }
  std::string text (bytes.begin (), bytes.end ());
  for (const std::string &a : split_arguments (text))
    expand_into (a, depth + 1, out);
}

std::vector<std::string>
expand_response_files (int argc, char **argv)
{
  std::vector<std::string> out;
  if (argc > 0)
    out.push_back (argv[0]);
  for (int i = 1; i < argc; i++)
    expand_into (argv[i], 0, out);
  return out;
}

std::vector<char *>
argv_view (std::vector<std::string> &args)
{
  std::vector<char *> v;
  for (std::string &a : args)
    v.push_back (&a[0]);
  v.push_back (nullptr);
  return v;
}

} // namespace memprof
